#include "libsched/model/labels.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace labels_test {
namespace {

using testing::FieldTerm;
using testing::Req;
using testing::Term;
using Labels = std::vector<std::pair<std::string, std::string>>;

LabelSet MakeLabels(Interner& in, const Labels& labels) {
  std::vector<LabelSet::Entry> entries;
  for (const auto& [k, v] : labels) entries.push_back({in.Intern(k), in.Intern(v)});
  return LabelSet(std::move(entries));
}

TEST(LabelSetTest, SortsByKeyAndLastValueWins) {
  Interner in;
  const Atom b = in.Intern("b"), a = in.Intern("a");
  const Atom v1 = in.Intern("1"), v2 = in.Intern("2"), v3 = in.Intern("3");
  LabelSet set({{a, v1}, {b, v2}, {a, v3}});
  ASSERT_EQ(set.entries().size(), 2u);
  EXPECT_EQ(set.Get(a), v3);
  EXPECT_EQ(set.Get(b), v2);
  EXPECT_TRUE(std::is_sorted(set.entries().begin(), set.entries().end()));
  EXPECT_FALSE(set.Get(in.Intern("c")).has_value());
  EXPECT_FALSE(set.Has(in.Intern("c")));
  EXPECT_TRUE(LabelSet().empty());
  EXPECT_FALSE(LabelSet().Get(a).has_value());
}

// Requirement::Matches, after apimachinery's TestSelectorMatches and
// TestRequirementSelectorMatching.
TEST(RequirementTest, Matches) {
  struct Case {
    std::string name;
    Labels labels;
    std::string key;
    SelectorOp op;
    std::vector<std::string> values;
    bool want;
  };
  const std::vector<Case> cases = {
      {"in match", {{"x", "y"}}, "x", SelectorOp::kIn, {"y"}, true},
      {"in one of many", {{"x", "b"}}, "x", SelectorOp::kIn, {"a", "b", "c"}, true},
      {"in other value", {{"x", "z"}}, "x", SelectorOp::kIn, {"y"}, false},
      {"in absent key", {}, "x", SelectorOp::kIn, {"z"}, false},
      {"in empty value absent key", {{"y", "baz"}}, "x", SelectorOp::kIn, {""}, false},
      {"notin other value", {{"x", "z"}}, "x", SelectorOp::kNotIn, {"y"}, true},
      {"notin same value", {{"x", "y"}}, "x", SelectorOp::kNotIn, {"y"}, false},
      {"notin absent key", {{"y", ""}}, "x", SelectorOp::kNotIn, {""}, true},
      {"exists", {{"x", "z"}}, "x", SelectorOp::kExists, {}, true},
      {"exists empty value", {{"y", ""}}, "y", SelectorOp::kExists, {}, true},
      {"exists absent", {{"y", "z"}}, "x", SelectorOp::kExists, {}, false},
      {"doesnotexist absent", {{"y", "z"}}, "x", SelectorOp::kDoesNotExist, {}, true},
      {"doesnotexist present", {{"x", "z"}}, "x", SelectorOp::kDoesNotExist, {}, false},
      {"gt", {{"x", "2"}}, "x", SelectorOp::kGt, {"1"}, true},
      {"gt equal", {{"x", "1"}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt less", {{"x", "0"}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt leading zeros", {{"kernel-version", "0206"}}, "kernel-version", SelectorOp::kGt,
       {"0204"}, true},
      {"gt plus sign", {{"x", "+2"}}, "x", SelectorOp::kGt, {"1"}, true},
      {"gt negative", {{"x", "-2"}}, "x", SelectorOp::kGt, {"-3"}, true},
      {"gt non-integer", {{"z", "v2"}}, "z", SelectorOp::kGt, {"1"}, false},
      {"gt empty value", {{"x", ""}}, "x", SelectorOp::kGt, {"-1"}, false},
      {"gt bare sign", {{"x", "+"}}, "x", SelectorOp::kGt, {"-1"}, false},
      {"gt double sign", {{"x", "+-5"}}, "x", SelectorOp::kGt, {"-10"}, false},
      {"gt minus plus", {{"x", "-+5"}}, "x", SelectorOp::kGt, {"-10"}, false},
      {"gt spaces", {{"x", " 5"}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt trailing", {{"x", "5 "}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt underscore", {{"x", "1_000"}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt hex", {{"x", "0x10"}}, "x", SelectorOp::kGt, {"1"}, false},
      {"gt max int64", {{"x", "9223372036854775807"}}, "x", SelectorOp::kGt, {"0"}, true},
      {"gt overflow", {{"x", "9223372036854775808"}}, "x", SelectorOp::kGt, {"0"}, false},
      {"lt min int64", {{"x", "-9223372036854775808"}}, "x", SelectorOp::kLt, {"0"}, true},
      {"lt underflow", {{"x", "-9223372036854775809"}}, "x", SelectorOp::kLt, {"0"}, false},
      {"gt absent", {}, "x", SelectorOp::kGt, {"1"}, false},
      {"lt", {{"x", "0"}}, "x", SelectorOp::kLt, {"1"}, true},
      {"lt greater", {{"x", "2"}}, "x", SelectorOp::kLt, {"1"}, false},
      {"lt absent", {}, "x", SelectorOp::kLt, {"1"}, false},
  };
  for (const Case& c : cases) {
    Interner in;
    const LabelSet labels = MakeLabels(in, c.labels);
    const Requirement r = Req(in, c.key, c.op, c.values);
    ASSERT_TRUE(r.valid) << c.name;
    EXPECT_EQ(r.Matches(labels, in), c.want) << c.name;
  }
}

TEST(NodeSelectorTermTest, Matches) {
  struct Case {
    std::string name;
    Labels labels;
    std::string node_name;
    NodeSelectorTerm (*term)(Interner&);
    bool want;
  };
  const std::vector<Case> cases = {
      {"empty term matches nothing", {{"a", "b"}}, "n1",
       [](Interner&) { return NodeSelectorTerm{}; }, false},
      {"expressions ANDed", {{"GPU", "NVIDIA"}}, "n1",
       [](Interner& in) {
         return Term({Req(in, "GPU", SelectorOp::kExists),
                      Req(in, "GPU", SelectorOp::kNotIn, {"AMD", "INTER"})});
       },
       true},
      {"expressions ANDed, one fails", {{"GPU", "NVIDIA"}}, "n1",
       [](Interner& in) {
         return Term({Req(in, "GPU", SelectorOp::kExists),
                      Req(in, "GPU", SelectorOp::kIn, {"AMD", "INTER"})});
       },
       false},
      {"invalid requirement", {{"foo", "bar"}}, "n1",
       [](Interner& in) {
         auto t = Term({Req(in, "foo", SelectorOp::kNotIn, {"x"})});
         t.valid = false;  // e.g. a value that is not a valid label value
         return t;
       },
       false},
      {"field in", {}, "host_1",
       [](Interner& in) { return FieldTerm(in, SelectorOp::kIn, {"host_1"}); }, true},
      {"field in other", {}, "host_2",
       [](Interner& in) { return FieldTerm(in, SelectorOp::kIn, {"host_1"}); }, false},
      {"field notin", {}, "host_2",
       [](Interner& in) { return FieldTerm(in, SelectorOp::kNotIn, {"host_1"}); }, true},
      {"field notin same", {}, "host_1",
       [](Interner& in) { return FieldTerm(in, SelectorOp::kNotIn, {"host_1"}); }, false},
      {"fields ignored for a nameless node", {}, "",
       [](Interner& in) { return FieldTerm(in, SelectorOp::kIn, {"host_1"}); }, true},
      {"field matches, labels do not", {}, "host_1",
       [](Interner& in) {
         auto t = FieldTerm(in, SelectorOp::kIn, {"host_1"});
         t.match_expressions.push_back(Req(in, "label_1", SelectorOp::kIn, {"label_1_val"}));
         return t;
       },
       false},
      {"field and labels match", {{"label_1", "label_1_val"}}, "host_1",
       [](Interner& in) {
         auto t = FieldTerm(in, SelectorOp::kIn, {"host_1"});
         t.match_expressions.push_back(Req(in, "label_1", SelectorOp::kIn, {"label_1_val"}));
         return t;
       },
       true},
      {"two fields conflict", {}, "node2",
       [](Interner& in) {
         auto t = FieldTerm(in, SelectorOp::kIn, {"node1"});
         t.match_fields.push_back(Req(in, "metadata.name", SelectorOp::kIn, {"node2"}));
         return t;
       },
       false},
  };
  for (const Case& c : cases) {
    Interner in;
    const LabelSet labels = MakeLabels(in, c.labels);
    const NodeSelectorTerm term = c.term(in);
    EXPECT_EQ(term.Matches(labels, in.Intern(c.node_name), in), c.want) << c.name;
  }
}

TEST(NodeSelectorTest, TermsAreORed) {
  Interner in;
  const LabelSet labels = MakeLabels(in, {{"foo", "bar"}});
  const Atom host1 = in.Intern("host_1");

  NodeSelector none;
  EXPECT_FALSE(none.Matches(labels, host1, in)) << "no terms match nothing";

  NodeSelector s;
  s.terms.push_back(Term({Req(in, "foo", SelectorOp::kIn, {"value1", "value2"})}));
  EXPECT_FALSE(s.Matches(labels, host1, in));
  s.terms.push_back(FieldTerm(in, SelectorOp::kIn, {"host_1"}));
  EXPECT_TRUE(s.Matches(labels, host1, in)) << "second term matches";
  EXPECT_FALSE(s.Matches(labels, in.Intern("host_2"), in));

  // An invalid term is skipped; the others still count (lazy errors).
  NodeSelector lazy;
  lazy.terms.push_back(Term({Req(in, "foo", SelectorOp::kIn, {"bar"})}));
  lazy.terms.back().valid = false;
  EXPECT_FALSE(lazy.Matches(labels, host1, in));
  lazy.terms.push_back(Term({Req(in, "foo", SelectorOp::kExists)}));
  EXPECT_TRUE(lazy.Matches(labels, host1, in));
}

TEST(LabelSelectorTest, Matches) {
  Interner in;
  const LabelSet labels = MakeLabels(in, {{"foo", "bar"}, {"baz", "blah"}});

  EXPECT_TRUE(LabelSelector{}.Matches(labels, in)) << "empty selects everything";
  EXPECT_TRUE(LabelSelector{}.Matches(LabelSet(), in));

  struct Case {
    std::vector<std::pair<std::string, std::string>> match_labels;
    bool want;
  };
  const std::vector<Case> cases = {
      {{{"foo", "bar"}}, true},
      {{{"baz", "blah"}}, true},
      {{{"foo", "bar"}, {"baz", "blah"}}, true},
      {{{"foo", "blah"}}, false},
      {{{"baz", "bar"}}, false},
      {{{"foo", "bar"}, {"foobar", "bar"}, {"baz", "blah"}}, false},
  };
  for (const Case& c : cases) {
    LabelSelector s;
    for (const auto& [k, v] : c.match_labels) {
      s.requirements.push_back(Req(in, k, SelectorOp::kIn, {v}));
    }
    EXPECT_EQ(s.Matches(labels, in), c.want);
  }

  LabelSelector invalid;
  invalid.valid = false;
  EXPECT_FALSE(invalid.Matches(labels, in)) << "invalid selects nothing";
}

}  // namespace
}  // namespace labels_test
}  // namespace sched
