#include "libsched/state/undo_log.h"

#include <gtest/gtest.h>

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace sched {
namespace undo_log_test {
namespace {

// Every structure kind the helpers change, with some content.
struct Structures {
  std::vector<int> v = {1, 2, 3, 4};
  std::map<std::string, int> m = {{"a", 1}, {"b", 2}};
  std::unordered_map<int, int> counts = {{1, 5}, {2, 1}};
  std::set<int> s = {10, 20};
  std::list<std::string> l = {"x", "y", "z"};
  int scalar = 7;
  bool operator==(const Structures&) const = default;
};

struct Case {
  const char* name;
  std::function<void(UndoLog*, Structures&)> change;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"Save",
       [](UndoLog* log, Structures& x) {
         undo::Save(log, x.scalar);
         x.scalar = 9;
       }},
      {"SaveAt",
       [](UndoLog* log, Structures& x) {
         undo::SaveAt(log, x.v, 1);
         x.v[1] = 0;
       }},
      {"PushBack then SaveAt after it moved the elements",
       [](UndoLog* log, Structures& x) {
         undo::SaveAt(log, x.v, 0);
         x.v[0] = 100;
         for (int i = 0; i < 100; ++i) undo::PushBack(log, x.v, i);
       }},
      {"PopBack", [](UndoLog* log, Structures& x) { undo::PopBack(log, x.v); }},
      {"EraseAt", [](UndoLog* log, Structures& x) { undo::EraseAt(log, x.v, 1); }},
      {"Grow", [](UndoLog* log, Structures& x) { undo::Grow(log, x.v, 10, -1); }},
      {"TryEmplace", [](UndoLog* log, Structures& x) { undo::TryEmplace(log, x.m, "c", 3); }},
      {"Erase then TryEmplace of the same key",
       [](UndoLog* log, Structures& x) {
         undo::Erase(log, x.m, x.m.find("a"));
         undo::TryEmplace(log, x.m, "a", 42);
       }},
      {"InsertOrAssign",
       [](UndoLog* log, Structures& x) {
         undo::InsertOrAssign(log, x.m, std::string("a"), 5);
         undo::InsertOrAssign(log, x.m, std::string("d"), 6);
       }},
      {"AddCount to zero, new, and many (rehashing)",
       [](UndoLog* log, Structures& x) {
         undo::AddCount(log, x.counts, 2, -1);
         undo::AddCount(log, x.counts, 1, 3);
         for (int i = 3; i < 200; ++i) undo::AddCount(log, x.counts, i, 1);
       }},
      {"Replace a vector and a map by smaller ones, then change the new ones",
       [](UndoLog* log, Structures& x) {
         undo::Replace(log, x.v, std::vector<int>(x.v.begin(), x.v.begin() + 2));
         undo::PushBack(log, x.v, 8);
         undo::Replace(log, x.counts, std::unordered_map<int, int>{{3, 1}});
         undo::AddCount(log, x.counts, 3, 2);
       }},
      {"Insert into a set", [](UndoLog* log, Structures& x) { undo::Insert(log, x.s, 15); }},
      {"ListPushBack and ListErase",
       [](UndoLog* log, Structures& x) {
         undo::ListPushBack(log, x.l, std::string("w"));
         undo::ListErase(log, x.l, std::next(x.l.begin()));
         undo::ListErase(log, x.l, x.l.begin());
         undo::ListErase(log, x.l, std::prev(x.l.end()));
       }},
  };
  return cases;
}

// Rollback puts every structure back as it was; Commit keeps the change.
TEST(UndoLogTest, RollbackUndoesAndCommitKeeps) {
  for (const Case& c : Cases()) {
    const Structures before;
    Structures changed;
    c.change(nullptr, changed);  // unrecorded: the change itself
    ASSERT_NE(changed, before) << c.name;

    UndoLog log;
    Structures x;
    log.Begin();
    c.change(&log, x);
    EXPECT_EQ(x, changed) << c.name;
    log.Rollback();
    EXPECT_EQ(x, before) << c.name;
    EXPECT_FALSE(log.recording()) << c.name;

    log.Begin();
    c.change(&log, x);
    log.Commit();
    EXPECT_EQ(x, changed) << c.name;
  }
}

// Units nest: an inner Commit hands its records to the outer unit, an
// inner Rollback undoes only its own changes, the outer Rollback all.
TEST(UndoLogTest, NestedUnits) {
  UndoLog log;
  int a = 0, b = 0, c = 0;
  const auto set = [&](int& slot, int v) {
    undo::Save(&log, slot);
    slot = v;
  };
  log.Begin();
  set(a, 1);
  log.Begin();
  set(b, 2);
  log.Commit();
  log.Begin();
  set(c, 3);
  set(a, 4);
  log.Rollback();
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2);
  EXPECT_EQ(c, 0);
  EXPECT_TRUE(log.recording());
  log.Rollback();
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 0);
  EXPECT_FALSE(log.recording());
}

// SaveShared restores the object even when the pointer it is given is the
// object's only owner: that pointer may be a structure's own slot (the
// queue's unschedulable pods when no copy of the map shares them), which a
// rollback leaves in place.
TEST(UndoLogTest, SaveSharedRestoresASoleOwnersObject) {
  for (const bool others_own : {false, true}) {
    UndoLog log;
    auto slot = std::make_shared<std::string>("before");
    const std::shared_ptr<std::string> other = others_own ? slot : nullptr;
    log.Begin();
    undo::SaveShared(&log, slot);
    *slot = "after";
    log.Rollback();
    EXPECT_EQ(*slot, "before") << others_own;
  }
}

// SaveMember restores the one field it saved, of an object the log keeps
// alive (the record may hold its last owner), and leaves the others.
TEST(UndoLogTest, SaveMemberRestoresItsFieldOnly) {
  struct Item {
    int count = 1;
    std::set<std::string> names = {"a"};
    std::shared_ptr<const std::string> ref = std::make_shared<const std::string>("r");
  };
  struct Case {
    const char* name;
    std::function<void(UndoLog*, const std::shared_ptr<Item>&)> save;
    std::function<void(Item&)> change;  // of the saved field
    std::function<bool(const Item&)> restored;
    int count_after;  // count, which every case changes and only "int" saves
  };
  const std::vector<Case> cases = {
      {"int",
       [](UndoLog* l, const std::shared_ptr<Item>& p) { undo::SaveMember<&Item::count>(l, p); },
       [](Item& i) { i.count = 5; }, [](const Item& i) { return i.count == 1; }, 1},
      {"set",
       [](UndoLog* l, const std::shared_ptr<Item>& p) { undo::SaveMember<&Item::names>(l, p); },
       [](Item& i) { i.names = {"b", "c"}; },
       [](const Item& i) { return i.names == std::set<std::string>{"a"}; }, 11},
      {"shared_ptr",
       [](UndoLog* l, const std::shared_ptr<Item>& p) { undo::SaveMember<&Item::ref>(l, p); },
       [](Item& i) { i.ref = nullptr; }, [](const Item& i) { return i.ref && *i.ref == "r"; },
       11},
  };
  for (const Case& c : cases) {
    for (const bool others_own : {false, true}) {
      UndoLog log;
      auto item = std::make_shared<Item>();
      const std::weak_ptr<Item> seen = item;
      log.Begin();
      c.save(&log, item);
      c.change(*item);
      item->count += 10;
      Item* const raw = item.get();
      if (!others_own) item.reset();  // the log's record is the last owner now
      log.Rollback();
      if (others_own) {
        EXPECT_TRUE(c.restored(*raw)) << c.name;
        EXPECT_EQ(raw->count, c.count_after) << c.name;
      }
      EXPECT_EQ(seen.expired(), !others_own) << c.name;
    }
  }
}

// When the outermost unit ends, the room its records took is kept up to
// kKeptRoom (a warm unit allocates nothing) and given back beyond it (one
// huge unit does not keep its room resident), by Commit and Rollback alike.
TEST(UndoLogTest, RoomIsKeptUpToABoundAfterTheOutermostUnit) {
  struct Case {
    const char* name;
    size_t records;
    bool commit;
    bool nested;  // the unit inside another, which ends after the checks
    bool kept;    // the room stays after the unit
  };
  const size_t big = UndoLog::kKeptRoom + 1;
  const Case cases[] = {
      {"small, committed", 100, true, false, true},
      {"small, rolled back", 100, false, false, true},
      {"at the bound", UndoLog::kKeptRoom, true, false, true},
      {"huge, committed", big, true, false, false},
      {"huge, rolled back", big, false, false, false},
      {"huge, nested: the outer unit still holds it", big, true, true, true},
  };
  for (const Case& c : cases) {
    UndoLog log;
    std::vector<int> v;
    v.reserve(c.records);
    if (c.nested) log.Begin();
    log.Begin();
    for (size_t i = 0; i < c.records; ++i) undo::PushBack(&log, v, 1);
    const size_t room = log.room();
    ASSERT_GE(room, c.records) << c.name;
    c.commit ? log.Commit() : log.Rollback();
    EXPECT_EQ(log.room(), c.kept ? room : 0) << c.name;
    EXPECT_EQ(v.size(), c.commit ? c.records : 0) << c.name;
    if (!c.nested) continue;
    log.Rollback();
    EXPECT_TRUE(v.empty()) << c.name;
    EXPECT_EQ(log.room(), 0u) << c.name;
  }
}

// Not recording (outside Begin..Commit), the helpers only change.
TEST(UndoLogTest, NotRecordingChangesOnly) {
  for (const Case& c : Cases()) {
    UndoLog log;
    Structures x, y;
    c.change(&log, x);
    c.change(nullptr, y);
    EXPECT_EQ(x, y) << c.name;
    log.Rollback();
    EXPECT_EQ(x, y) << c.name;
  }
}

}  // namespace
}  // namespace undo_log_test
}  // namespace sched
