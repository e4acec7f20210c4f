//! The two structures of the Arrow C data interface
//! (<https://arrow.apache.org/docs/format/CDataInterface.html>) and the PyCapsule names of
//! its Python protocol (`__arrow_c_array__`).

use std::ffi::{c_char, c_void, CStr};

/// `struct ArrowSchema`.
#[repr(C)]
pub struct ArrowSchema {
    pub format: *const c_char,
    pub name: *const c_char,
    pub metadata: *const c_char,
    pub flags: i64,
    pub n_children: i64,
    pub children: *mut *mut ArrowSchema,
    pub dictionary: *mut ArrowSchema,
    pub release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    pub private_data: *mut c_void,
}

/// `struct ArrowArray`.
#[repr(C)]
pub struct ArrowArray {
    pub length: i64,
    pub null_count: i64,
    pub offset: i64,
    pub n_buffers: i64,
    pub n_children: i64,
    pub buffers: *mut *const c_void,
    pub children: *mut *mut ArrowArray,
    pub dictionary: *mut ArrowArray,
    pub release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    pub private_data: *mut c_void,
}

pub const FLAG_NULLABLE: i64 = 2;
pub const SCHEMA_CAPSULE: &CStr = c"arrow_schema";
pub const ARRAY_CAPSULE: &CStr = c"arrow_array";
