//! The edge: what stands between a connection and the API's resources, whatever the
//! route. Listeners and their connection limits, request middleware (hosts, request ids,
//! security headers, problem bodies), admission (rate limits and per-caller slots), the
//! minimum body rate, who the caller is, and the render slots downloads take.

pub mod admission;
pub mod bodyrate;
pub mod caller;
pub mod listen;
pub mod middleware;
pub mod renders;
