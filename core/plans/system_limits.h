// What Linux takes of a path or of one argument of a program, in bytes: the lengths values that become paths,
// words of a command line or environment strings are held to, so that a value too long is refused where it
// is read, not met as "File name too long" or "Argument list too long" when its job starts.
#pragma once

#include <cstddef>

namespace scalebench {

// The longest path (PATH_MAX, with its NUL).
inline constexpr std::size_t kMostPathBytes = 4095;
// The longest argument or environment string passed to a program (MAX_ARG_STRLEN, with its NUL): an
// `mpirun -x NAME=value` word, or NAME=value in the environment of a job's tasks.
inline constexpr std::size_t kMostArgumentBytes = 32 * 4096;

} // namespace scalebench
