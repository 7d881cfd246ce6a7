#include "libsched/state/cow.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/model/string_hash.h"
#include "libsched/state/room_after_erase.h"

namespace sched {
namespace cow_test {
namespace {

TEST(CowTest, ACopyClonesOnlyWhenItWritesWhileShared) {
  Cow<std::vector<int>> a;
  a.Mutable(nullptr).push_back(1);
  const std::vector<int>* before = &*a;
  a.Mutable(nullptr).push_back(2);  // not shared: written in place
  EXPECT_EQ(&*a, before);
  Cow<std::vector<int>> b = a;
  EXPECT_EQ(&*b, &*a);  // shared
  b.Mutable(nullptr).push_back(3);
  EXPECT_NE(&*b, &*a);
  EXPECT_EQ(*a, (std::vector<int>{1, 2}));
  EXPECT_EQ(*b, (std::vector<int>{1, 2, 3}));
  a.Mutable(nullptr).push_back(4);  // a alone now: in place
  EXPECT_EQ(&*a, before);
  EXPECT_EQ(*b, (std::vector<int>{1, 2, 3}));
}

TEST(CowTest, RollbackReturnsToTheSharedValue) {
  Cow<std::vector<int>> a;
  a.Mutable(nullptr).push_back(1);
  Cow<std::vector<int>> b = a;
  UndoLog log;
  log.Begin();
  undo::PushBack(&log, b.Mutable(&log), 2);
  EXPECT_NE(&*b, &*a);
  log.Rollback();
  EXPECT_EQ(&*b, &*a);  // shared again, nothing copied left behind
  EXPECT_EQ(*b, (std::vector<int>{1}));
}

using Map = CowMap<std::string, int, 4>;

std::map<std::string, int> Dump(const Map& m) {
  std::map<std::string, int> out;
  m.ForEach([&](const std::string& k, int v) { out.emplace(k, v); });
  return out;
}

void Put(Map& m, const std::string& k, int v, UndoLog* log = nullptr) {
  auto& shard = m.MutableShard(k, log);
  if (auto it = shard.find(k); it != shard.end()) {
    undo::Save(log, it->second);
    it->second = v;
  } else {
    undo::TryEmplace(log, shard, k, v);
  }
}

void Drop(Map& m, const std::string& k, UndoLog* log = nullptr) {
  auto& shard = m.MutableShard(k, log);
  undo::Erase(log, shard, shard.find(k));
}

// Writes, erases and copies in every order, each copy checked against a
// plain map with the same history.
TEST(CowMapTest, CopiesNeverSeeEachOthersChanges) {
  struct Step {
    int copy;  // which of the copies writes (a new copy of it is made at -1)
    std::string key;
    int value;  // 0: erase
  };
  const std::vector<Step> steps = {
      {0, "a", 1}, {0, "b", 2},  {0, "c", 3},  {-1, "", 0}, {1, "a", 10}, {0, "b", 0},
      {1, "d", 4}, {-1, "", 0},  {2, "c", 30}, {1, "c", 0}, {0, "e", 5},  {2, "a", 0},
      {-1, "", 0}, {3, "z", 26}, {0, "a", 0},  {3, "b", 0}, {1, "b", 20},
  };
  std::vector<Map> copies(1);
  std::vector<std::map<std::string, int>> want(1);
  for (const Step& s : steps) {
    if (s.copy < 0) {
      copies.push_back(copies.back());
      want.push_back(want.back());
      continue;
    }
    if (s.value == 0) {
      Drop(copies[s.copy], s.key);
      want[s.copy].erase(s.key);
    } else {
      Put(copies[s.copy], s.key, s.value);
      want[s.copy][s.key] = s.value;
    }
    for (size_t i = 0; i < copies.size(); ++i) {
      EXPECT_EQ(Dump(copies[i]), want[i]) << "copy " << i;
      EXPECT_EQ(copies[i].size(), want[i].size()) << "copy " << i;
    }
  }
  EXPECT_EQ(*copies[1].Find("b"), 20);
  EXPECT_EQ(copies[0].Find("b"), nullptr);
}

TEST(CowMapTest, RollbackRestoresTheSharedMap) {
  Map a;
  for (const char* k : {"a", "b", "c", "d", "e"}) Put(a, k, 1);
  Map b = a;
  UndoLog log;
  log.Begin();
  Put(b, "a", 2, &log);
  Put(b, "f", 3, &log);
  Drop(b, "c", &log);
  EXPECT_EQ(Dump(b),
            (std::map<std::string, int>{{"a", 2}, {"b", 1}, {"d", 1}, {"e", 1}, {"f", 3}}));
  log.Rollback();
  EXPECT_EQ(Dump(b), Dump(a));
  Put(a, "a", 5);  // and the two are still apart
  EXPECT_EQ(*b.Find("a"), 1);
}

// A map with a transparent hash is looked up by string_view (no key
// built): the view must land in the shard and bucket its string went to.
TEST(CowMapTest, TransparentHashFindsByStringView) {
  CowMap<std::string, int, 4, StringHash> m;
  const std::vector<std::string> keys = {"default/pod-1", "default/pod-12345678901234567890",
                                         "kube-system/dns", "node-0042", ""};
  for (size_t i = 0; i < keys.size(); ++i) {
    undo::TryEmplace(nullptr, m.MutableShard(keys[i], nullptr), keys[i], static_cast<int>(i));
  }
  // Views into one buffer, none of them NUL-terminated where it ends.
  const std::string buffer = "default/pod-12345678901234567890|kube-system/dnsX";
  struct Case {
    std::string_view key;
    int want;  // -1: absent
  };
  const std::vector<Case> cases = {
      {std::string_view(buffer).substr(0, 13), 0},  // "default/pod-1"
      {std::string_view(buffer).substr(0, 32), 1},
      {std::string_view(buffer).substr(33, 15), 2},  // "kube-system/dns"
      {std::string_view(buffer).substr(33, 16), -1},
      {std::string_view(buffer).substr(0, 12), -1},  // "default/pod-"
      {std::string_view(), 4},
  };
  for (const Case& c : cases) {
    const int* got = m.Find(c.key);
    if (c.want < 0) {
      EXPECT_EQ(got, nullptr) << c.key;
      EXPECT_FALSE(m.Contains(c.key)) << c.key;
    } else {
      ASSERT_NE(got, nullptr) << c.key;
      EXPECT_EQ(*got, c.want) << c.key;
      auto& shard = m.MutableShard(c.key, nullptr);
      EXPECT_NE(shard.find(c.key), shard.end()) << c.key;
    }
  }
}

TEST(CowMapTest, UnshareAllLeavesNothingShared) {
  Map a;
  for (const char* k : {"a", "b", "c", "d", "e"}) Put(a, k, 1);
  Map b = a;
  int values = 0;
  b.UnshareAll([&](int& v) { v += ++values; });
  EXPECT_EQ(values, 5);
  for (const char* k : {"a", "b", "c", "d", "e"}) EXPECT_EQ(*a.Find(k), 1) << k;
}

// A shard that lost most of its entries moves them into fewer buckets
// (room_after_erase.h), undoably, and never in a copy that shares it.
TEST(CowMapTest, AShardThatLostMostEntriesGivesBackItsBuckets) {
  struct Case {
    const char* name;
    int entries;       // k0, k1, ... put in the one shard
    int kept;          // then all but the first `kept` erased
    bool rolled_back;  // the erases in a unit that rolls back
    bool copied;       // a copy made before the erases
    bool falls;        // the shard's bucket count falls
  };
  const Case cases[] = {
      {"a few entries keep their buckets", 12, 0, false, false, false},
      {"half erased: the buckets stay", 1000, 500, false, false, false},
      {"most erased: the buckets fall", 1000, 10, false, false, true},
      {"all erased", 1000, 0, false, false, true},
      {"a rollback puts the old buckets and entries back", 1000, 10, true, false, true},
      {"a copy sharing the shard keeps its buckets", 1000, 10, false, true, true},
      {"a copy, then a rollback", 1000, 3, true, true, true},
  };
  using One = CowMap<std::string, int, 1>;
  auto dump = [](const One& m) {
    std::map<std::string, int> out;
    m.ForEach([&](const std::string& k, int v) { out.emplace(k, v); });
    return out;
  };
  auto key = [](int i) { return "k" + std::to_string(i); };
  for (const Case& c : cases) {
    One m;
    std::map<std::string, const int*> at;  // where each entry lives
    for (int i = 0; i < c.entries; ++i) {
      undo::TryEmplace(nullptr, m.MutableShard(key(i), nullptr), key(i), i);
      at[key(i)] = m.Find(key(i));
    }
    const size_t buckets = m.MutableShard("", nullptr).bucket_count();
    const std::map<std::string, int> all = dump(m);
    std::unique_ptr<One> copy = c.copied ? std::make_unique<One>(m) : nullptr;
    UndoLog log;
    if (c.rolled_back) log.Begin();
    for (int i = c.kept; i < c.entries; ++i) {
      auto& shard = m.MutableShard(key(i), &log);
      undo::Erase(&log, shard, shard.find(key(i)));
      undo::Shrink(&log, shard);
    }
    const size_t after = m.MutableShard("", &log).bucket_count();
    EXPECT_EQ(after < buckets, c.falls) << c.name << ": " << buckets << " -> " << after;
    EXPECT_FALSE(FarAboveSize(after, static_cast<size_t>(c.kept))) << c.name;
    EXPECT_EQ(m.size(), static_cast<size_t>(c.kept)) << c.name;
    // The entries kept were moved, not copied (a shared shard's were).
    for (int i = 0; i < c.kept && !c.copied; ++i) EXPECT_EQ(m.Find(key(i)), at[key(i)]) << c.name;
    if (copy != nullptr) {  // its own shard now: no clone
      EXPECT_EQ(copy->MutableShard("", nullptr).bucket_count(), buckets) << c.name;
      EXPECT_EQ(dump(*copy), all) << c.name;
    }
    if (!c.rolled_back) continue;
    log.Rollback();
    EXPECT_EQ(dump(m), all) << c.name;
    for (const auto& [k, p] : at) EXPECT_EQ(m.Find(k), p) << c.name << ": " << k << " moved";
    EXPECT_EQ(m.MutableShard("", nullptr).bucket_count(), buckets) << c.name;
  }
}

}  // namespace
}  // namespace cow_test
}  // namespace sched
