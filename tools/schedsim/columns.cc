#include "columns.h"

#include <algorithm>

namespace schedsim {

void WriteColumns(std::ostream& out, const std::vector<Row>& rows) {
  std::vector<size_t> width;
  for (const Row& r : rows) {
    if (width.size() < r.size()) width.resize(r.size());
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string line;
  for (const Row& r : rows) {
    line.clear();
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line.append(width[i] + 2 - r[i].size(), ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  }
}

}  // namespace schedsim
