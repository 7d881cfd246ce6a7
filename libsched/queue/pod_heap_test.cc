// PodHeap: the order of its items (OrderKey element by element, then the
// key), kept through deletions, updates and pops.
#include "libsched/queue/pod_heap.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace sched {
namespace pod_heap_test {
namespace {

struct Item {
  std::string key;
  int attempts;  // the order's first number
  int unschedulable_count;  // its second
};

struct Case {
  std::string name;
  std::vector<Item> items;  // added in this order
  std::vector<std::string> want;  // keys from the head
};

// Orders by attempts, then unschedulable_count descending (negated), as a
// queue's order function reads any numbers of an item.
PodHeap::OrderKey TestOrder(const QueuedPodInfo& p) {
  return {p.attempts, -int64_t{p.unschedulable_count}, 0};
}

std::shared_ptr<QueuedPodInfo> New(const Item& i) {
  auto p = std::make_shared<QueuedPodInfo>();
  p->key = i.key;
  p->key_hash = StringHash{}(p->key);
  p->attempts = i.attempts;
  p->unschedulable_count = i.unschedulable_count;
  return p;
}

std::vector<std::string> Keys(const PodHeap& h) {
  std::vector<std::string> out;
  for (const QueuedPodInfo* p : h.List()) out.push_back(p->key);
  return out;
}

TEST(PodHeapTest, Order) {
  const std::vector<Case> cases = {
      {"first number", {{"a", 3, 0}, {"b", 1, 0}, {"c", 2, 0}}, {"b", "c", "a"}},
      {"negative numbers", {{"a", 0, 0}, {"b", -5, 0}, {"c", -1, 0}}, {"b", "c", "a"}},
      {"second number on a tie", {{"a", 1, 1}, {"b", 1, 7}, {"c", 0, 0}}, {"c", "b", "a"}},
      {"key on a full tie", {{"c", 1, 1}, {"a", 1, 1}, {"b", 1, 1}}, {"a", "b", "c"}},
      {"key bytewise", {{"b", 0, 0}, {"B", 0, 0}, {"a/b", 0, 0}}, {"B", "a/b", "b"}},
      {"the same key replaces", {{"a", 5, 0}, {"b", 3, 0}, {"a", 1, 0}}, {"a", "b"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PodHeap h(TestOrder);
    for (const Item& i : c.items) h.AddOrUpdate(New(i));
    EXPECT_EQ(Keys(h), c.want);
    EXPECT_EQ(h.Len(), c.want.size());
    ASSERT_NE(h.Peek(), nullptr);
    EXPECT_EQ(h.Peek()->key, c.want.front());
    // Deleting the middle one and popping the rest keeps the order.
    std::vector<std::string> rest = c.want;
    if (rest.size() > 2) {
      ASSERT_NE(h.Delete(HashedKey(rest[1])), nullptr);
      rest.erase(rest.begin() + 1);
    }
    EXPECT_EQ(h.Delete(HashedKey("absent")), nullptr);
    std::vector<std::string> popped;
    while (auto p = h.Pop()) popped.push_back(p->key);
    EXPECT_EQ(popped, rest);
    EXPECT_EQ(h.Get(HashedKey(c.want.front())), nullptr);
  }
}

// An item taken out, changed and put back sorts by its new numbers.
TEST(PodHeapTest, UpdateMovesAnItem) {
  PodHeap h(TestOrder);
  for (const Item& i : {Item{"a", 1, 0}, Item{"b", 2, 0}, Item{"c", 3, 0}}) h.AddOrUpdate(New(i));
  std::shared_ptr<QueuedPodInfo> a = h.Delete(HashedKey("a"));
  a->attempts = 9;
  h.AddOrUpdate(std::move(a));
  EXPECT_EQ(Keys(h), (std::vector<std::string>{"b", "c", "a"}));
  ASSERT_NE(h.Get(HashedKey("a")), nullptr);
  EXPECT_EQ(h.Get(HashedKey("a"))->attempts, 9);
}

// Items go in under their kept hash (QueuedPodInfo::key_hash) and are
// found by keys hashed afresh, however many rehashes the insertions made;
// after each deletion and pop too.
TEST(PodHeapTest, KeptHashesFindItemsAfterRehashes) {
  for (const int n : {1, 2, 13, 1000}) {
    SCOPED_TRACE(n);
    PodHeap h(TestOrder);
    std::vector<std::string> keys;
    for (int i = 0; i < n; ++i) {
      keys.push_back("ns/pod-" + std::to_string(i));
      h.AddOrUpdate(New(Item{keys.back(), i, 0}));
    }
    for (const std::string& k : keys) {
      const QueuedPodInfo* p = h.Get(HashedKey(k));
      ASSERT_NE(p, nullptr) << k;
      EXPECT_EQ(p->key, k);
    }
    for (int i = 0; i < n; i += 2) ASSERT_NE(h.Delete(HashedKey(keys[i])), nullptr) << keys[i];
    for (int i = 0; i < n; ++i) EXPECT_EQ(h.Has(HashedKey(keys[i])), i % 2 == 1) << keys[i];
    while (auto p = h.Pop()) EXPECT_FALSE(h.Has(HashedKey(p->key))) << p->key;
    EXPECT_EQ(h.Len(), 0u);
  }
}

}  // namespace
}  // namespace pod_heap_test
}  // namespace sched
