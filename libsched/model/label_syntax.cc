#include "libsched/model/label_syntax.h"

#include <charconv>
#include <system_error>

namespace sched {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters.
bool IsNamePart(std::string_view s) {
  if (s.empty() || s.size() > kQualifiedNameMaxLength || !IsAlnum(s.front()) ||
      !IsAlnum(s.back())) {
    return false;
  }
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsDns1123Label(std::string_view s) {
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  for (char c : s) {
    if (!lower_alnum(c) && c != '-') return false;
  }
  return true;
}

// DNS-1123 labels joined by '.', at most 253 characters.
bool IsDns1123Subdomain(std::string_view s) {
  if (s.size() > kDns1123SubdomainMaxLength) return false;
  while (true) {
    const size_t dot = s.find('.');
    if (!IsDns1123Label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

}  // namespace

bool IsQualifiedName(std::string_view s) {
  const size_t slash = s.find('/');
  if (slash == std::string_view::npos) return IsNamePart(s);
  const std::string_view name = s.substr(slash + 1);
  return name.find('/') == std::string_view::npos &&
         IsDns1123Subdomain(s.substr(0, slash)) && IsNamePart(name);
}

bool IsLabelValue(std::string_view value) { return value.empty() || IsNamePart(value); }

std::optional<int64_t> ParseDecimalInt64(std::string_view s) {
  // std::from_chars takes '-' but not '+'; Go takes both, once.
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (s.empty() || s.front() == '-') return std::nullopt;
  }
  int64_t v = 0;
  const char* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v, 10);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

}  // namespace sched
