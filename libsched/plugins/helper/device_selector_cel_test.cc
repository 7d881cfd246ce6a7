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

// cel-go's ext.TwoVarComprehensions (ext/comprehensions.go; the cases of
// its comprehensions_test.go), over lists (index, value), literal maps and
// the device's attribute maps (key, value).
TEST(DeviceSelectorCelTest, TwoVariableComprehensions) {
  const CelDevice d = Device({{"a", Int(1)}, {"b", Int(2)}, {"other.example.com/c", Int(3)}});
  const std::string attrs = R"(device.attributes["dra.example.com"])";
  RunCases({
      {"all-list", "[1, 2, 3].all(i, j, i < j)", d, "", "", true},
      {"all-map", "{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)", d, "", "", false},
      {"all-nested", "{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))",
       d, "", "", true},
      {"exists-map",
       "{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))",
       d, "", "", true},
      {"exists-list", "[1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)", d, "", "", false},
      {"existsOne-list", "[1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)", d, "", "", false},
      {"existsOne-list-one", "[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)", d, "", "",
       true},
      {"existsOne-map", "{'i': 0, 'j': 1, 'k': 2}.existsOne(i, v, i == 'l' || v == 1)", d, "", "",
       true},
      {"exists_one-spelling", "[1, 2].exists_one(i, v, i == 1 && v == 2)", d, "", "", true},
      {"transformList", "[1, 2, 3].transformList(i, v, (i * v) + v) == [1, 4, 9]", d, "", "",
       true},
      {"transformList-filter", "[1, 2, 3].transformList(i, v, i % 2 == 0, (i * v) + v) == [1, 9]",
       d, "", "", true},
      {"transformList-map-keys",
       "{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k).sort() == ['farewell', 'greeting']",
       d, "", "", true},
      {"transformList-map-values",
       "{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v).sort() == ['goodbye', 'hello']",
       d, "", "", true},
      {"map-in-key-order", "{'b': 1, 'a': 2, 'c': 0}.transformList(k, v, k) == ['a', 'b', 'c']", d,
       "", "", true},
      {"transformMap-list", "[1, 2, 3].transformMap(i, v, (i * v) + v) == {0: 1, 1: 4, 2: 9}", d,
       "", "", true},
      {"transformMap-filter", "[1, 2, 3].transformMap(i, v, i % 2 == 0, (i * v) + v) == {0: 1, 2: 9}",
       d, "", "", true},
      {"transformMap-map", "{'greeting': 'hello'}.transformMap(k, v, v + '!') == {'greeting': 'hello!'}",
       d, "", "", true},
      {"transformMapEntry",
       "{'greeting': 'hello'}.transformMapEntry(k, v, {v: k}) == {'hello': 'greeting'}", d, "", "",
       true},
      {"transformMapEntry-reverse",
       "[1, 2, 3].transformMapEntry(i, v, {v: i}) == {1: 0, 2: 1, 3: 2}", d, "", "", true},
      {"transformMapEntry-filter",
       "{'a': 1, 'b': 2}.transformMapEntry(k, v, v > 1, {k + k: v}) == {'bb': 2}", d, "", "", true},
      {"transformMapEntry-duplicate",
       "{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(k, v, {v: k}).size() == 1", d,
       "", "insert failed: key aloha already exists", false},
      {"transformMapEntry-numeric-duplicate", "[0, 0u].transformMapEntry(i, v, {v: i}).size() == 1",
       d, "", "insert failed: key 0 already exists", false},
      {"attributes", attrs + ".all(k, v, v < 3) && " + attrs + ".exists(k, v, k == 'b' && v == 2)",
       d, "", "", true},
      {"domains",
       "device.attributes.existsOne(domain, ids, domain == 'other.example.com' && ids.c == 3)", d, "",
       "", true},
      {"shadowing", "[10, 20].all(i, v, [1].all(i, w, i == 0) && v == (i + 1) * 10)", d, "", "",
       true},
      {"outer-variables",
       "cel.bind(x, 5, [1, 2].all(i, v, [3].exists(j, w, x + i + v + j + w > 0)))", d, "", "", true},
      {"error-absorbed", "[0, 1].exists(i, v, 1 / v == 1)", d, "", "", true},
      {"error-kept", "[0, 1].all(i, v, 1 / v == 1)", d, "", "by zero", false},
      {"not-iterable", "device.driver.all(i, v, true)", d, "", "list or map", false},
      {"simple-name", "[1].all(i.j, v, true)", d, "argument must be a simple name", "", false},
      {"duplicate-name", "[1].all(i, i, true)", d, "duplicate variable name: i", "", false},
      {"accumulator", "[1].all(__result__, v, true)", d,
       "iteration variable overwrites accumulator variable", "", false},
      {"one-variable-still", "[1, 2].all(x, x > 0) && [1].exists_one(x, x == 1)", d, "", "", true},
  });
}

// Kubernetes' URL library (apiserver/pkg/cel/library/urls.go; the examples
// of its documentation and apiextensions' validation tests).
TEST(DeviceSelectorCelTest, Url) {
  const CelDevice d =
      Device({{"url", String("https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor")}});
  const std::string u = R"(url(device.attributes["dra.example.com"].url))";
  RunCases({
      {"scheme", "url('/path').getScheme() == '' && url('https://example.com/').getScheme() == 'https'",
       d, "", "", true},
      {"host",
       "url('https://example.com:80/').getHost() == 'example.com:80' && url('https://example.com/').getHost() == 'example.com' && url('https://[::1]:80/').getHost() == '[::1]:80' && url('https://[::1]/').getHost() == '[::1]' && url('/path').getHost() == ''",
       d, "", "", true},
      {"hostname",
       "url('https://example.com:80/').getHostname() == 'example.com' && url('https://127.0.0.1/').getHostname() == '127.0.0.1' && url('https://[::1]/').getHostname() == '::1' && url('/path').getHostname() == ''",
       d, "", "", true},
      {"port",
       "url('https://example.com:80/').getPort() == '80' && url('https://example.com/').getPort() == '' && url('/path').getPort() == ''",
       d, "", "", true},
      {"escaped-path",
       "url('https://example.com/path').getEscapedPath() == '/path' && url('https://example.com/with space/').getEscapedPath() == '/with%20space/' && url('https://example.com').getEscapedPath() == '' && url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'",
       d, "", "", true},
      {"query",
       "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']} && url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']} && url('https://example.com/path?').getQuery() == {} && url('https://example.com/path').getQuery() == {}",
       d, "", "", true},
      {"query-escapes", "url('https://e.com/?a=%41+b&c;d=1&e=%zz&f').getQuery() == {'a': ['A b'], 'f': ['']}",
       d, "", "", true},
      {"attribute",
       u + ".getScheme() == 'https' && " + u + ".getHost() == 'kubernetes.io:80' && " + u +
           ".getHostname() == 'kubernetes.io' && " + u + ".getPort() == '80' && " + u +
           ".getEscapedPath() == '/docs/home' && " + u + ".getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
       d, "", "", true},
      {"isURL",
       "isURL('https://user:pass@example.com:80/path?query=val#fragment') && isURL('/absolute-path') && !isURL('https://inv\\x00alid') && !isURL('relative-path') && !isURL('') && isURL('mailto:someone@example.com')",
       d, "", "", true},
      {"equal", "url('https://example.com/a') == url('HTTPS://example.com/a') && url('/a') != url('/b')",
       d, "", "", true},
      {"relative", "url('relative-path').getScheme() == ''", d, "",
       "URL parse error during conversion from string: parse \"relative-path\": invalid URI for request",
       false},
      {"bad-port", "url('https://example.com:8a/').getPort() == ''", d, "",
       "parse \"https://example.com:8a/\": invalid port \":8a\" after host", false},
      {"strict-colons", "isURL('http://a:1:2/') || !isURL('foo://a:1:2/')", d, "", "", false},
      {"bad-escape", "url('https://example.com/%zz').getHost() == ''", d, "",
       "invalid URL escape \"%zz\"", false},
      {"missing-scheme", "url(':foo').getHost() == ''", d, "", "missing protocol scheme", false},
      {"ipv4-literal", "isURL('http://[1.2.3.4]/')", d, "", "", false},
      {"ipv6-zone", "url('http://[fe80::1%25en0]:8080/').getHostname() == 'fe80::1%en0'", d, "", "",
       true},
      {"protocol-relative",
       "url('//host/path').getHost() == 'host' && url('//host/path').getEscapedPath() == '/path'", d,
       "", "", true},
  });
}

// Kubernetes' format library (apiserver/pkg/cel/library/format.go; the
// cases of format_test.go).
TEST(DeviceSelectorCelTest, Format) {
  const CelDevice d = Device({{"name", String("my-name")}});
  const std::string label_error =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
      "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
      "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  const std::string subdomain_error =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
      "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
      "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const std::string dns1035_error =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
      "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
      "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  const std::string qualified_error =
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
      "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
      "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const std::string label_value_error =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
      "'my_value',  or '12345', regex used for validation is "
      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  auto none = [](const std::string& format, const std::string& value) {
    return "!format." + format + "().validate('" + value + "').hasValue()";
  };
  auto errors = [](const std::string& format, const std::string& value, const std::string& want) {
    return "format." + format + "().validate('" + value + "').value() == ['''" + want + "''']";
  };
  RunCases({
      {"dns1123Label", none("dns1123Label", "my-label-name"), d, "", "", true},
      {"dns1123Subdomain", none("dns1123Subdomain", "apiextensions.k8s.io"), d, "", "", true},
      {"qualifiedName", none("qualifiedName", "apiextensions.k8s.io/v1beta1"), d, "", "", true},
      {"dns1123LabelPrefix", none("dns1123LabelPrefix", "my-label-prefix-"), d, "", "", true},
      {"dns1123SubdomainPrefix", none("dns1123SubdomainPrefix", "mysubdomain.prefix.-"), d, "", "",
       true},
      {"dns1035LabelPrefix", none("dns1035LabelPrefix", "my-label-prefix-"), d, "", "", true},
      {"uri", none("uri", "http://example.com"), d, "", "", true},
      {"uuid", none("uuid", "123e4567-e89b-12d3-a456-426614174000"), d, "", "", true},
      {"byte", none("byte", "aGVsbG8="), d, "", "", true},
      {"date", none("date", "2021-01-01") + " && " + none("date", "2024-02-29"), d, "", "", true},
      {"datetime", none("datetime", "2021-01-01T00:00:00Z"), d, "", "", true},
      {"labelValue", none("labelValue", "my-cool-label-Value"), d, "", "", true},
      {"dns1123Label-error", errors("dns1123Label", "contains a space", label_error), d, "", "",
       true},
      {"dns1123Label-dots", errors("dns1123Label", "a.b", "must not contain dots"), d, "", "",
       true},
      {"dns1123Subdomain-error", errors("dns1123Subdomain", "contains a space", subdomain_error), d,
       "", "", true},
      {"dns1035Label-error", errors("dns1035Label", "contains a space", dns1035_error), d, "", "",
       true},
      {"qualifiedName-error", errors("qualifiedName", "contains a space", qualified_error), d, "",
       "", true},
      {"dns1123LabelPrefix-error", errors("dns1123LabelPrefix", "contains a space-", label_error),
       d, "", "", true},
      {"dns1123SubdomainPrefix-error",
       errors("dns1123SubdomainPrefix", "contains a space-", subdomain_error), d, "", "", true},
      {"dns1035LabelPrefix-error", errors("dns1035LabelPrefix", "contains a space-", dns1035_error),
       d, "", "", true},
      {"labelValue-error", errors("labelValue", "my-cool-label-Value!!", label_value_error), d, "",
       "", true},
      {"byte-error", errors("byte", "aGVsbG8", "invalid base64"), d, "", "", true},
      {"date-error", errors("date", "2020-01-32", "invalid date") + " && " +
                         errors("date", "2023-02-29", "invalid date"),
       d, "", "", true},
      {"datetime-error", errors("datetime", "2020-01-32T00:00:00Z", "invalid datetime"), d, "", "",
       true},
      {"uuid-error", errors("uuid", "not-a-uuid", "does not match the UUID format"), d, "", "",
       true},
      {"uri-error",
       errors("uri", "relative", "parse \"relative\": invalid URI for request"), d, "", "", true},
      {"label-too-long", "format.dns1123Label().validate('" + std::string(64, 'a') +
                             "').value() == ['must be no more than 63 characters']",
       d, "", "", true},
      {"named", "!format.named('unknown').hasValue() && format.named('dns1123Label').value() == format.dns1123Label() && format.named('uri').hasValue()",
       d, "", "", true},
      {"distinct", "format.dns1123Label() != format.dns1035Label()", d, "", "", true},
      {"attribute", R"(!format.dns1123Label().validate(device.attributes["dra.example.com"].name).hasValue())",
       d, "", "", true},
  });
}

// What upstream's type check rejects at compile time that needs no
// attribute's type (typecheck.rs): a result of a known type other than bool
// (compile.go's message) and arithmetic without an overload (cel-go's).
TEST(DeviceSelectorCelTest, CompileTimeTypeChecks) {
  const CelDevice d = Device({{"n", Int(2)}});
  RunCases({
      {"string-result", "device.driver", d, "must evaluate to bool or the unknown type, not string",
       "", false},
      {"int-result", "size(device.driver) + 1", d,
       "must evaluate to bool or the unknown type, not int", "", false},
      {"double-result", "true ? 1.5 : 2.5", d,
       "must evaluate to bool or the unknown type, not double", "", false},
      {"null-result", "null", d, "must evaluate to bool or the unknown type, not null_type", "",
       false},
      {"uint-result", "-1 == 1 ? 1u : 2u", d, "must evaluate to bool or the unknown type, not uint",
       "", false},
      {"string-plus-int", "device.driver + 1 == 'a'", d,
       "compilation failed: ERROR: <input>:1:15: found no matching overload for '_+_' applied to "
       "'(string, int)'",
       "", false},
      {"int-plus-double", "1 + 1.5 > 0.0", d,
       "found no matching overload for '_+_' applied to '(int, double)'", "", false},
      {"double-modulo", "2.5 % 2.0 == 0.5", d,
       "found no matching overload for '_%_' applied to '(double, double)'", "", false},
      {"string-minus", "'a' - 'b' == ''", d,
       "found no matching overload for '_-_' applied to '(string, string)'", "", false},
      {"multiplication", "size(device.driver) * 2 > 0 && 'a' + 'b' == 'ab'", d, "", "", true},
      {"unknown-attribute-arithmetic", R"(device.attributes["dra.example.com"].n + 1 == 3)", d, "",
       "", true},
      {"unknown-attribute-result", R"(device.attributes["dra.example.com"].n > 1)", d, "", "",
       true},
      {"bool-attribute-result", R"(device.allowMultipleAllocations)", d, "", "", false},
      {"shadowed-device", "[{'driver': 1}].all(device, device.driver + 1 == 2)", d, "", "", true},
      {"bound-device", "cel.bind(device, {'driver': 2}, device.driver * 2 == 4)", d, "", "", true},
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
      {"non-bool-result", R"(device.attributes["dra.example.com"].s)",
       Device({{"s", String("x")}}), "", "could not be converted to bool", false},
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
