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
      ASSERT_NE(h.Delete(rest[1]), nullptr);
      rest.erase(rest.begin() + 1);
    }
    EXPECT_EQ(h.Delete("absent"), nullptr);
    std::vector<std::string> popped;
    while (auto p = h.Pop()) popped.push_back(p->key);
    EXPECT_EQ(popped, rest);
    EXPECT_EQ(h.Get(c.want.front()), nullptr);
  }
}

// An item taken out, changed and put back sorts by its new numbers.
TEST(PodHeapTest, UpdateMovesAnItem) {
  PodHeap h(TestOrder);
  for (const Item& i : {Item{"a", 1, 0}, Item{"b", 2, 0}, Item{"c", 3, 0}}) h.AddOrUpdate(New(i));
  std::shared_ptr<QueuedPodInfo> a = h.Delete("a");
  a->attempts = 9;
  h.AddOrUpdate(std::move(a));
  EXPECT_EQ(Keys(h), (std::vector<std::string>{"b", "c", "a"}));
  ASSERT_NE(h.Get("a"), nullptr);
  EXPECT_EQ(h.Get("a")->attempts, 9);
}

}  // namespace
}  // namespace pod_heap_test
}  // namespace sched
