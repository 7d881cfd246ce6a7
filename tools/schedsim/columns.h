// Aligned text columns for the simulator's human-readable output.
#ifndef TOOLS_SCHEDSIM_COLUMNS_H_
#define TOOLS_SCHEDSIM_COLUMNS_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim {

using Row = std::vector<std::string>;

// Writes `rows` (the first is the header) with every column but the last
// padded to its widest cell plus two spaces; no trailing blanks.
void WriteColumns(std::ostream& out, const std::vector<Row>& rows);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_COLUMNS_H_
