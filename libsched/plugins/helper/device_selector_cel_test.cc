#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "libsched/plugins/helper/device_selector.h"

namespace sched {
namespace device_selector_cel_test {
namespace {

using Kind = DeviceAttributeValue::Kind;
using Result = DeviceSelector::Result;

DeviceAttributeValue Int(int64_t v) { return {Kind::kInt, v, false, {}}; }
DeviceAttributeValue Bool(bool v) { return {Kind::kBool, 0, v, {}}; }
DeviceAttributeValue String(std::string v) { return {Kind::kString, 0, false, std::move(v)}; }
DeviceAttributeValue Version(std::string v) { return {Kind::kVersion, 0, false, std::move(v)}; }

struct Case {
  std::string name;
  std::string expression;
  CelDevice device;
  std::string compile_error;  // a substring; empty: compiles
  std::string match_error;    // a substring; empty: evaluates
  bool match = false;
};

const char kDriver[] = "dra.example.com";

CelDevice Device(std::vector<std::pair<std::string, DeviceAttributeValue>> attributes = {},
                 std::vector<std::pair<std::string, std::string>> capacity = {},
                 std::string driver = kDriver) {
  CelDevice d;
  d.driver = std::move(driver);
  d.attributes = std::move(attributes);
  d.capacity = std::move(capacity);
  return d;
}

CelDevice WithMultipleAllocations(bool allow) {
  CelDevice d = Device();
  d.allow_multiple_allocations = allow;
  return d;
}

void RunCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name + ": " + c.expression);
    std::string error;
    const std::unique_ptr<DeviceSelector> selector = DeviceSelector::Compile(c.expression, &error);
    if (!c.compile_error.empty()) {
      EXPECT_EQ(selector, nullptr);
      EXPECT_NE(error.find(c.compile_error), std::string::npos) << error;
      continue;
    }
    ASSERT_NE(selector, nullptr) << error;
    const Result got = selector->Matches(c.device, &error);
    if (!c.match_error.empty()) {
      EXPECT_EQ(got, Result::kError);
      EXPECT_NE(error.find(c.match_error), std::string::npos) << error;
      continue;
    }
    EXPECT_EQ(got, c.match ? Result::kMatch : Result::kNoMatch) << error;
  }
}

// The cases of upstream's TestCEL (k8s.io/dynamic-resource-allocation/cel
// compile_test.go) for the features v1.36.3 enables by default
// (DRAConsumableCapacity on, DRAListTypeAttributes off).
TEST(DeviceSelectorCelTest, UpstreamCases) {
  ASSERT_TRUE(DeviceSelector::Available());
  std::string expensive = "int('1'.find('[0-9]*')) < 100";
  for (const char* v : {"z5", "z4", "z3", "z2", "z", "y", "x"}) {
    expensive = std::string("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(") + v + ", " + expensive + ")";
  }
  RunCases({
      {"true", "true", Device(), "", "", true},
      {"false", "false", Device(), "", "", false},
      {"syntax-error", "?!", Device(), "Syntax error", "", false},
      {"type-error", "1", Device(), "must evaluate to bool or the unknown type, not int", "",
       false},
      {"runtime-error-lookup-identifier",
       R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))", Device(),
       "", "no such key: noSuchAttr", false},
      {"runtime-error-lookup-map",
       R"(device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0")))",
       Device(), "", "no such key: noSuchAttr", false},
      {"domain-check-negative", R"("no-such-domain" in device.attributes)", Device(), "", "",
       false},
      {"domain-check-positive", R"("dra.example.com" in device.attributes)",
       Device({{"dra.example.com/something", Bool(true)}}), "", "", true},
      {"empty-driver-name", R"(device.driver == "")", Device({}, {}, ""), "", "", true},
      {"real-driver-name", R"(device.driver == "dra.example.com")", Device(), "", "", true},
      {"driver-name-qualifier", R"(device.attributes["dra.example.com"].name)",
       Device({{"name", Bool(true)}}), "", "", true},
      {"driver-name-qualifier-map-lookup", R"(device.attributes["dra.example.com"]["name"])",
       Device({{"name", Bool(true)}}), "", "", true},
      {"bind", R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))",
       Device({{"name", Bool(true)}}), "", "", true},
      {"qualified-attribute-name", R"(device.attributes["other.example.com"].name)",
       Device({{"other.example.com/name", Bool(true)}}), "", "", true},
      {"bool", R"(device.attributes["dra.example.com"].name)", Device({{"name", Bool(true)}}), "",
       "", true},
      {"int", R"(device.attributes["dra.example.com"].name > 0)", Device({{"name", Int(1)}}), "",
       "", true},
      {"string", R"(device.attributes["dra.example.com"].name == "fish")",
       Device({{"name", String("fish")}}), "", "", true},
      {"version", R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))",
       Device({{"name", Version("1.0.0")}}), "", "", true},
      {"version_v",
       R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
       Device({{"name", Version("1.0.0")}}), "", "", true},
      {"quantity", R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device({}, {{"name", "1Mi"}}), "", "", true},
      {"check-positive",
       R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device({}, {{"name", "1Mi"}}), "", "", true},
      {"check-negative",
       R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device(), "", "", true},
      {"all", R"(
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
)",
       Device({{"bool", Bool(true)},
               {"int", Int(1)},
               {"string", String("fish")},
               {"version", Version("1.0.0")}},
              {{"quantity", "1Mi"}}),
       "", "", true},
      {"many",
       R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)",
       Device({{"a", Bool(true)}, {"b", Bool(true)}, {"c", Bool(true)}}), "", "", true},
      {"check_attribute_domains", R"(device.attributes.exists_one(x, x == "dra.example.com"))",
       Device({{"services", String("some_example_value")}}), "", "", true},
      {"check_attribute_ids",
       R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))",
       Device({{"services", String("some_example_value")}}), "", "", true},
      {"split_attribute",
       R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)",
       Device({{"services", String("some_example_value")}}), "", "", true},
      {"regexp_attribute", R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))",
       Device({{"services", String("asymetric")}}), "", "", true},
      {"check_capacity_domains", R"(device.capacity.exists_one(x, x == "dra.example.com"))",
       Device({}, {{"memory", "1Mi"}}), "", "", true},
      {"check_capacity_ids", R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))",
       Device({}, {{"memory", "1Mi"}}), "", "", true},
      {"expensive", expensive, Device(), "", "actual cost limit exceeded", false},
      {"allow_multiple_allocations", "device.allowMultipleAllocations == true",
       WithMultipleAllocations(true), "", "", true},
      {"allow_multiple_allocations_default", "device.allowMultipleAllocations == false", Device(),
       "", "", true},
  });
}

// Kubernetes' quantity library (apiserver/pkg/cel/library/quantity.go),
// with values compared exactly, not as rounded units.
TEST(DeviceSelectorCelTest, Quantity) {
  const CelDevice d = Device({}, {{"memory", "1500m"}, {"small", "1n"}});
  const std::string mem = R"(device.capacity["dra.example.com"].memory)";
  RunCases({
      {"compareTo", mem + R"(.compareTo(quantity("1.5")) == 0)", d, "", "", true},
      {"compareTo-less", mem + R"(.compareTo(quantity("2")) == -1)", d, "", "", true},
      {"isLessThan", mem + R"(.isLessThan(quantity("1501m")))", d, "", "", true},
      {"nano", R"(device.capacity["dra.example.com"].small.isGreaterThan(quantity("0")))", d, "",
       "", true},
      {"equal", mem + R"( == quantity("1.5"))", d, "", "", true},
      {"isInteger", mem + ".isInteger()", d, "", "", false},
      {"add", mem + R"(.add(quantity("500m")).asInteger() == 2)", d, "", "", true},
      {"add-int", mem + R"(.add(1).compareTo(quantity("2500m")) == 0)", d, "", "", true},
      {"sub", mem + R"(.sub(quantity("2")).sign() == -1)", d, "", "", true},
      {"sub-int", mem + R"(.sub(2).isLessThan(quantity("0")))", d, "", "", true},
      {"asApproximateFloat", mem + ".asApproximateFloat() == 1.5", d, "", "", true},
      {"asInteger-error", mem + ".asInteger() == 1", d, "", "cannot convert value to integer",
       false},
      {"isQuantity", R"(isQuantity("1Gi") && !isQuantity("1Gx"))", d, "", "", true},
      {"invalid", R"(quantity("1Gx").sign() == 1)", d, "", "quantities must match", false},
      {"binary-vs-decimal", R"(quantity("1Ki").compareTo(quantity("1k")) == 1)", d, "", "", true},
  });
}

// Kubernetes' semver library (apiserver/pkg/cel/library/semverlib.go).
TEST(DeviceSelectorCelTest, Semver) {
  const CelDevice d = Device({{"v", Version("1.2.3-rc.1+build")}});
  const std::string v = R"(device.attributes["dra.example.com"].v)";
  RunCases({
      {"major", v + ".major() == 1 && " + v + ".minor() == 2 && " + v + ".patch() == 3", d, "", "",
       true},
      {"prerelease-orders-first", v + R"(.isLessThan(semver("1.2.3")))", d, "", "", true},
      {"build-ignored", v + R"(.compareTo(semver("1.2.3-rc.1")) == 0)", d, "", "", true},
      {"equal-ignores-build", v + R"( == semver("1.2.3-rc.1+other"))", d, "", "", true},
      {"normalize", R"(semver("v01.2", true) == semver("1.2.0"))", d, "", "", true},
      {"strict", R"(isSemver("v1.2.3") || isSemver("1.2"))", d, "", "", false},
      {"short-with-prerelease", R"(isSemver("1.2-rc", true))", d, "", "", false},
      {"invalid", R"(semver("1.2").major() == 1)", d, "", "semver", false},
      {"bad-attribute", R"(device.driver == "")", Device({{"v", Version("not-a-version")}}), "",
       "attribute v: parse semantic version", false},
  });
}

// Kubernetes' regex library (apiserver/pkg/cel/library/regex.go; the
// cases of its library tests).
TEST(DeviceSelectorCelTest, Regex) {
  const CelDevice d = Device({{"s", String("abc 123 def 456")}});
  const std::string s = R"(device.attributes["dra.example.com"].s)";
  RunCases({
      {"find", s + R"(.find("[0-9]+") == "123")", d, "", "", true},
      {"find-none", R"("abc".find("[0-9]+") == "")", d, "", "", true},
      {"findAll", s + R"(.findAll("[0-9]+") == ["123", "456"])", d, "", "", true},
      {"findAll-n", s + R"(.findAll("[0-9]+", 1) == ["123"])", d, "", "", true},
      {"findAll-zero", s + R"(.findAll("[0-9]+", 0) == [])", d, "", "", true},
      {"findAll-empty-matches", R"("baaab".findAll("a*") == ["", "aaa", ""])", d, "", "", true},
      {"illegal", R"("a".find("[") == "")", d, "", "Illegal regex", false},
  });
}

// Kubernetes' lists library (apiserver/pkg/cel/library/lists.go), cel-go's
// ext.Lists (version 3) and ext.Sets.
TEST(DeviceSelectorCelTest, ListsAndSets) {
  const CelDevice d = Device();
  RunCases({
      {"isSorted", "[1, 2, 2, 3].isSorted() && !['b', 'a'].isSorted()", d, "", "", true},
      {"sum", "[1, 2, 3].sum() == 6 && [1.5, 2.0].sum() == 3.5 && [].sum() == 0", d, "", "", true},
      {"min-max", "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3", d, "", "", true},
      {"min-empty", "[].min() == 0", d, "", "min called on empty list", false},
      {"indexOf", "[1, 2, 2].indexOf(2) == 1 && [1, 2, 2].lastIndexOf(2) == 2", d, "", "", true},
      {"indexOf-missing", "['a'].indexOf('b') == -1 && 'abc'.indexOf('c') == 2", d, "", "", true},
      {"slice", "[1, 2, 3, 4].slice(1, 3) == [2, 3]", d, "", "", true},
      {"flatten", "[1, [2, [3]]].flatten() == [1, 2, [3]]", d, "", "", true},
      {"distinct-sort-reverse", "[3, 1, 3, 2].distinct().sort().reverse() == [3, 2, 1]", d, "", "",
       true},
      {"range-sortBy", "lists.range(3).sortBy(x, -x) == [2, 1, 0]", d, "", "", true},
      {"sets.contains", "sets.contains([1, 2, 3], [3, 1]) && !sets.contains([1], [2])", d, "", "",
       true},
      {"sets.equivalent", "sets.equivalent([1, 2], [2, 1, 1])", d, "", "", true},
      {"sets.intersects", "sets.intersects([1, 2], [2, 5]) && !sets.intersects([1], [])", d, "", "",
       true},
  });
}

// Kubernetes' IP and CIDR libraries (apiserver/pkg/cel/library/ip.go,
// cidr.go; the cases of ip_test.go and cidr_test.go).
TEST(DeviceSelectorCelTest, IpAndCidr) {
  const CelDevice d = Device({{"addr", String("10.0.1.7")}});
  RunCases({
      {"family", R"(ip("192.168.0.1").family() == 4 && ip("::1").family() == 6)", d, "", "", true},
      {"attribute", R"(cidr("10.0.0.0/16").containsIP(device.attributes["dra.example.com"].addr))",
       d, "", "", true},
      {"isIP", R"(isIP("1.2.3.4") && !isIP("1.2.3.4.5") && !isIP("01.2.3.4"))", d, "", "", true},
      {"canonical", R"(ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1"))", d, "", "",
       true},
      {"string", R"(string(ip("2001:db8:0:0:0:0:0:1")) == "2001:db8::1")", d, "", "", true},
      {"zone", R"(ip("fe80::1%eth0").family() == 6)", d, "", "zone value is not allowed", false},
      {"mapped", R"(ip("::ffff:1.2.3.4").family() == 6)", d, "",
       "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed", false},
      {"bad-ip", R"(ip("x").family() == 6)", d, "", "IP Address \"x\" parse error", false},
      {"kinds",
       R"(ip("127.0.0.1").isLoopback() && ip("0.0.0.0").isUnspecified() && ip("169.254.1.1").isLinkLocalUnicast() && ip("ff02::1").isLinkLocalMulticast() && ip("8.8.8.8").isGlobalUnicast() && !ip("255.255.255.255").isGlobalUnicast())",
       d, "", "", true},
      {"equal", R"(ip("1.2.3.4") == ip("1.2.3.4") && ip("1.2.3.4") != ip("1.2.3.5"))", d, "", "",
       true},
      {"containsIP",
       R"(cidr("192.168.0.0/24").containsIP("192.168.0.1") && !cidr("192.168.0.0/24").containsIP(ip("192.168.1.1")))",
       d, "", "", true},
      {"containsCIDR",
       R"(cidr("192.168.0.0/16").containsCIDR("192.168.1.0/24") && !cidr("192.168.1.0/24").containsCIDR(cidr("192.168.0.0/16")))",
       d, "", "", true},
      {"masked",
       R"(cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24") && cidr("192.168.0.1/24").ip() == ip("192.168.0.1"))",
       d, "", "", true},
      {"prefixLength",
       R"(cidr("::1/128").prefixLength() == 128 && string(cidr("10.0.0.1/8")) == "10.0.0.1/8")", d,
       "", "", true},
      {"isCIDR", R"(isCIDR("1.2.3.4/32") && !isCIDR("1.2.3.4/33") && !isCIDR("1.2.3.4/024"))", d,
       "", "", true},
      {"no-slash", R"(cidr("1.2.3.4").prefixLength() == 32)", d, "", "no '/'", false},
  });
}

// cel.bind(a, "0123456789abcdef", cel.bind(b, a + a, ...)): a string
// doubled `times` times, 16 * 2^times bytes without a bound.
std::string Doubling(int times) {
  std::string e = R"(cel.bind(v0, "0123456789abcdef", )";
  for (int i = 1; i <= times; ++i) {
    e += "cel.bind(v" + std::to_string(i) + ", v" + std::to_string(i - 1) + " + v" +
         std::to_string(i - 1) + ", ";
  }
  e += "size(v" + std::to_string(times) + ") > 0";
  e += std::string(static_cast<size_t>(times) + 1, ')');
  return e;
}

// cel.bind(s, <5000 bytes>, [s.upperAscii(), ...].size() > 0): each call
// is charged its receiver's size before it runs.
std::string ReusedString(int calls) {
  std::string e = "cel.bind(s, \"" + std::string(5000, 'a') + "\", [";
  for (int i = 0; i < calls; ++i) e += std::string(i ? ", " : "") + "s.upperAscii()";
  return e + "].size() > 0)";
}

// Errors upstream reports, and what this evaluator refuses.
TEST(DeviceSelectorCelTest, Errors) {
  RunCases({
      {"non-bool-result", R"(device.driver)", Device(), "", "could not be converted to bool",
       false},
      {"undeclared-variable", "foo == 1", Device(), "undeclared reference to 'foo'", "", false},
      {"type-names", "type(device.driver) == string && type(1) == int", Device(), "", "", true},
      {"optional", R"(optional.of(device.driver).hasValue())", Device(), "", "", true},
      {"strings-namespace", R"(strings.quote("a") == "\"a\"")", Device(), "", "", true},
      {"missing-attribute", R"(device.attributes["dra.example.com"].absent)", Device(), "",
       "no such key: absent", false},
      {"replace", R"("abc".replace("b", "x") == "axc" && "aaa".replace("a", "b", 2) == "bba")",
       Device(), "", "", true},
      {"replace-empty", R"("ab".replace("", "-") == "-a-b-")", Device(), "", "", true},
      {"replace-huge",
       "\"" + std::string(2000, 'a') + "\".replace(\"a\", \"" + std::string(600, 'b') +
           "\").size() > 0",
       Device(), "", "actual cost limit exceeded", false},
      {"reused-string", ReusedString(201), Device(), "", "actual cost limit exceeded", false},
      {"reused-string-within-budget", ReusedString(150), Device(), "", "", true},
      {"distinct-square", "lists.range(2000).distinct().size() == 2000", Device(), "",
       "actual cost limit exceeded", false},
      {"too-long", "true" + std::string(10 * 1024, ' '), Device(), "more than the limit", "",
       false},
      {"bad-capacity", "true", Device({}, {{"memory", "lots"}}), "", "capacity memory", false},
      {"doubling", Doubling(17), Device(), "", "actual cost limit exceeded", false},
      {"big-map", "[1].map(x, [1, 2, 3]).size() == 1", Device(), "", "", true},
  });
}

// A compiled selector is shared by the allocator's Filter threads.
TEST(DeviceSelectorCelTest, ConcurrentMatches) {
  std::string error;
  const auto selector = DeviceSelector::Compile(
      R"(device.attributes["dra.example.com"].n > 1 && device.capacity["dra.example.com"].m.isGreaterThan(quantity("1")))",
      &error);
  ASSERT_NE(selector, nullptr) << error;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        std::string e;
        const CelDevice d = Device({{"n", Int(i % 3)}}, {{"m", "2"}});
        const Result want = i % 3 > 1 ? Result::kMatch : Result::kNoMatch;
        if (selector->Matches(d, &e) != want) wrong.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace device_selector_cel_test
}  // namespace sched
