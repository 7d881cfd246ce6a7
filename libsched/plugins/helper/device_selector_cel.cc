// DeviceSelector over the `cel` crate (libsched/plugins/helper/cel/, a Rust
// static library with a C ABI): compile once, evaluate per device. Built
// with -Dcel=enabled (docs/dra.md); device_selector_unavailable.cc otherwise.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/model/quantity.h"
#include "libsched/plugins/helper/device_selector.h"

// The crate's C ABI (src/lib.rs). Not exported by libsched.so: its version
// script exports sched_* only.
extern "C" {
struct LibschedCelSelector;
using LibschedCelErrorSink = void (*)(void* context, const char* message, size_t length);

struct LibschedCelAttribute {
  const char* name;
  size_t name_length;
  int32_t kind;  // DeviceAttributeValue::Kind
  int64_t int_value;
  int32_t bool_value;
  const char* text;
  size_t text_length;
};

struct LibschedCelCapacity {
  const char* name;
  size_t name_length;
  const char* value;
  size_t value_length;
};

struct LibschedCelDevice {
  const char* driver;
  size_t driver_length;
  int32_t allow_multiple_allocations;
  const LibschedCelAttribute* attributes;
  size_t attributes_length;
  const LibschedCelCapacity* capacity;
  size_t capacity_length;
};

LibschedCelSelector* libsched_cel_compile(const char* expression, size_t length,
                                          LibschedCelErrorSink sink, void* context);
int32_t libsched_cel_matches(const LibschedCelSelector* selector, const LibschedCelDevice* device,
                             LibschedCelErrorSink sink, void* context);
void libsched_cel_free(LibschedCelSelector* selector);
void libsched_cel_set_quantity_parser(int32_t (*parser)(const char* text, size_t length,
                                                        int64_t* high, uint64_t* low));
}

namespace sched {
namespace {

// The crate's quantity(...) and capacities use libsched's parser: 1 and the
// value in nano-units, or 0. Handed over as a pointer, so that the Rust
// archive needs no symbol of libsched's and links after it.
int32_t ParseQuantityForCel(const char* text, size_t length, int64_t* high, uint64_t* low) {
  const QuantityNanosResult q = ParseQuantityNanos(std::string_view(text, length));
  if (!q.ok()) return 0;
  *high = q.high;
  *low = q.low;
  return 1;
}

void SetError(void* context, const char* message, size_t length) {
  static_cast<std::string*>(context)->assign(message, length);
}

class CelDeviceSelector final : public DeviceSelector {
 public:
  explicit CelDeviceSelector(LibschedCelSelector* selector) : selector_(selector) {}
  ~CelDeviceSelector() override { libsched_cel_free(selector_); }
  CelDeviceSelector(const CelDeviceSelector&) = delete;
  CelDeviceSelector& operator=(const CelDeviceSelector&) = delete;

  Result Matches(const CelDevice& device, std::string* error) const override {
    std::vector<LibschedCelAttribute> attributes;
    attributes.reserve(device.attributes.size());
    for (const auto& [name, value] : device.attributes) {
      attributes.push_back({name.data(), name.size(), static_cast<int32_t>(value.kind),
                            value.int_value, value.bool_value ? 1 : 0, value.text.data(),
                            value.text.size()});
    }
    std::vector<LibschedCelCapacity> capacity;
    capacity.reserve(device.capacity.size());
    for (const auto& [name, value] : device.capacity) {
      capacity.push_back({name.data(), name.size(), value.data(), value.size()});
    }
    const LibschedCelDevice d{
        device.driver.data(), device.driver.size(), device.allow_multiple_allocations ? 1 : 0,
        attributes.data(),    attributes.size(),    capacity.data(),
        capacity.size()};
    switch (libsched_cel_matches(selector_, &d, SetError, error)) {
      case 1:
        return Result::kMatch;
      case 0:
        return Result::kNoMatch;
      default:
        return Result::kError;
    }
  }

 private:
  LibschedCelSelector* selector_;
};

}  // namespace

bool DeviceSelector::Available() { return true; }

std::unique_ptr<DeviceSelector> DeviceSelector::Compile(std::string_view expression,
                                                        std::string* error) {
  libsched_cel_set_quantity_parser(ParseQuantityForCel);
  LibschedCelSelector* selector =
      libsched_cel_compile(expression.data(), expression.size(), SetError, error);
  if (selector == nullptr) return nullptr;
  return std::make_unique<CelDeviceSelector>(selector);
}

}  // namespace sched
