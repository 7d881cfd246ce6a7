// libFuzzer target: DRA device selectors (libsched/plugins/helper/
// device_selector.h) on arbitrary expressions, through the CEL evaluator
// (the cel crate behind device_selector_cel.cc; built with -Dcel).
//
// What is checked: no input crashes, leaks, hangs (the cost budget bounds
// evaluation; libFuzzer's -timeout catches the rest) or panics across the
// C ABI; a failed Compile or an kError names its reason; a compiled selector
// gives the same answer twice on one device.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "libsched/plugins/helper/device_selector.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

sched::CelDevice TestDevice() {
  using Kind = sched::DeviceAttributeValue::Kind;
  sched::CelDevice d;
  d.driver = "dra.example.com";
  d.allow_multiple_allocations = true;
  d.attributes = {{"model", {Kind::kString, 0, false, "a100"}},
                  {"cores", {Kind::kInt, 108, false, {}}},
                  {"healthy", {Kind::kBool, 0, true, {}}},
                  {"driverVersion", {Kind::kVersion, 0, false, "1.2.3-rc.1"}},
                  {"other.example.com/zone", {Kind::kString, 0, false, "a"}}};
  d.capacity = {{"memory", "80Gi"}, {"other.example.com/slots", "1500m"}};
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view expression(reinterpret_cast<const char*>(data), size);
  std::string error;
  const std::unique_ptr<sched::DeviceSelector> selector =
      sched::DeviceSelector::Compile(expression, &error);
  if (selector == nullptr) {
    FUZZ_CHECK(!error.empty(), "Compile failed without a reason");
    return 0;
  }
  static const sched::CelDevice device = TestDevice();
  std::string first_error, second_error;
  const auto first = selector->Matches(device, &first_error);
  const auto second = selector->Matches(device, &second_error);
  FUZZ_CHECK(first == second && first_error == second_error, "not deterministic: %s / %s",
             first_error.c_str(), second_error.c_str());
  FUZZ_CHECK(first != sched::DeviceSelector::Result::kError || !first_error.empty(),
             "an evaluation error without a reason");
  return 0;
}
