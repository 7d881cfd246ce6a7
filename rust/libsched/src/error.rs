//! The error type: a `sched_error` copied into Rust values.

use std::ffi::CStr;
use std::fmt;

use libsched_sys as sys;

/// The status code of a failed call (`sched_status` in `sched.h`, minus
/// `SCHED_OK`). Codes are never renumbered; new ones may be added, so match
/// with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `SCHED_INVALID_ARGUMENT`: the input is malformed, has a wrong type or
    /// names something invalid. The engine is exactly as before the call.
    InvalidArgument,
    /// `SCHED_OUT_OF_MEMORY`: memory could not be allocated. The engine is
    /// exactly as before the call, and stays usable.
    OutOfMemory,
    /// `SCHED_INTERNAL`: a broken invariant inside the library (please
    /// report it), or a result document this crate could not decode.
    Internal,
    /// A status this crate does not know (a newer library).
    Other(u32),
}

impl Code {
    fn from_raw(status: sys::sched_status) -> Code {
        match status {
            sys::SCHED_INVALID_ARGUMENT => Code::InvalidArgument,
            sys::SCHED_OUT_OF_MEMORY => Code::OutOfMemory,
            sys::SCHED_INTERNAL => Code::Internal,
            other => Code::Other(other),
        }
    }

    /// The library's name of the code: `"INVALID_ARGUMENT"`,
    /// `"OUT_OF_MEMORY"`, `"INTERNAL"` (`sched_status_name`).
    ///
    /// ```
    /// assert_eq!(libsched::Code::InvalidArgument.name(), "INVALID_ARGUMENT");
    /// ```
    pub fn name(self) -> &'static str {
        let raw = match self {
            Code::InvalidArgument => sys::SCHED_INVALID_ARGUMENT,
            Code::OutOfMemory => sys::SCHED_OUT_OF_MEMORY,
            Code::Internal => sys::SCHED_INTERNAL,
            Code::Other(raw) => raw,
        };
        // SAFETY: sched_status_name returns static storage for any value.
        unsafe { CStr::from_ptr(sys::sched_status_name(raw)) }
            .to_str()
            .unwrap_or("UNKNOWN")
    }
}

/// A failed call: the status code, the library's message and the JSON path
/// of the offending input field (`""` when the error is not about one
/// field), e.g. `spec.containers[0].resources.requests.cpu`.
///
/// ```
/// let err = libsched::Engine::new(r#"{"percentageOfNodesToScore":101}"#).unwrap_err();
/// assert_eq!(err.code(), libsched::Code::InvalidArgument);
/// assert_eq!(err.path(), "percentageOfNodesToScore");
/// assert!(err.message().contains("must be between 0 and 100"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: Code,
    message: String,
    path: String,
}

impl Error {
    /// Takes the error a call returned (and frees it).
    ///
    /// # Safety
    /// `err` is NULL or a `sched_error` the library returned, not yet freed.
    pub(crate) unsafe fn from_raw(status: sys::sched_status, err: *mut sys::sched_error) -> Error {
        let code = Code::from_raw(status);
        if err.is_null() {
            // SCHED_OUT_OF_MEMORY when even the error could not be allocated.
            return Error {
                code,
                message: code.name().to_string(),
                path: String::new(),
            };
        }
        let text =
            |p: *const std::os::raw::c_char| CStr::from_ptr(p).to_string_lossy().into_owned();
        let error = Error {
            code,
            message: text(sys::sched_error_message(err)),
            path: text(sys::sched_error_path(err)),
        };
        sys::sched_error_free(err);
        error
    }

    /// An error of this crate rather than of the library.
    pub(crate) fn internal(message: String) -> Error {
        Error {
            code: Code::Internal,
            message,
            path: String::new(),
        }
    }

    /// The status code.
    pub fn code(&self) -> Code {
        self.code
    }

    /// The library's message; for a field error it reads `"<path>: <detail>"`,
    /// as Kubernetes field errors print.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON path of the offending input field, `""` when the error is
    /// not about one field.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "libsched: {}: {}", self.code.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
