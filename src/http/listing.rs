//! What every listing shares (`GET /books`, `/printruns`, `/oneup/books`,
//! `/crosswords/fills`, `/jobs`): the caller's own items (an admin's: everyone's), newest
//! first, `limit` at a time, and an opaque `cursor` (the previous page's `next_cursor`) to
//! continue; `next` is the following page's address, with the same filters.

use serde::Serialize;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::respond::echo;

/// Items a page holds at most.
pub const MAX_LIMIT: i64 = 100;

/// Items a page holds when `limit` is not given.
const DEFAULT_LIMIT: i64 = 20;

/// The paging parameters of every listing (their documentation: [`Page::parse`] reads
/// them, with the listing's filters).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct ListQuery {
    /// How many items (1 to 100).
    #[param(minimum = 1, maximum = 100, default = 20)]
    limit: Option<i64>,
    /// Where to continue: the `next_cursor` of the previous page.
    #[param(pattern = "^[0-9]{1,19}$")]
    cursor: Option<String>,
}

/// Where a listing goes on.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ListingNext)]
pub(crate) struct Next {
    /// Pass as `cursor` for the next page; null on the last page.
    #[schema(required = true)]
    next_cursor: Option<String>,
    /// The next page's address (with the same `limit` and filters); null on the last page.
    #[schema(required = true)]
    next: Option<String>,
}

/// A listing's request, read from its query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub limit: i64,
    /// Items before this position (`None`: from the newest).
    pub before: Option<i64>,
    /// The filters given, for `next`.
    filters: Vec<(&'static str, String)>,
}

impl Page {
    /// Reads `limit`, `cursor` and the listing's `filters` (each at most once); any other
    /// parameter is 422.
    pub fn parse(query: Option<&str>, filters: &[&'static str]) -> Result<Page, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|e| ApiError::invalid("query", format!("query string: {}", echo(&e.to_string()))))?;
        let mut page = Page { limit: DEFAULT_LIMIT, before: None, filters: Vec::new() };
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            let known = ["limit", "cursor"].iter().chain(filters).find(|known| **known == name.as_str());
            let Some(&name) = known else {
                let takes = ["limit", "cursor"].iter().chain(filters).copied().collect::<Vec<_>>().join(", ");
                return Err(ApiError::invalid(
                    "query",
                    format!("query string: unknown parameter {}; this listing takes {takes}", echo(name)),
                ));
            };
            if seen.contains(&name) {
                return Err(ApiError::invalid(name, format!("{name} is given more than once")));
            }
            seen.push(name);
            match name {
                "limit" => {
                    page.limit = value.parse().ok().filter(|n| (1..=MAX_LIMIT).contains(n)).ok_or_else(|| {
                        ApiError::invalid(
                            "limit",
                            format!("limit must be between 1 and {MAX_LIMIT} (got {})", echo(value)),
                        )
                    })?
                }
                "cursor" => {
                    let position = value.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                        ApiError::invalid("cursor", format!("{} is not a cursor from a previous page", echo(value)))
                    })?;
                    page.before = Some(position);
                }
                filter => page.filters.push((filter, value.clone())),
            }
        }
        Ok(page)
    }

    /// The value of filter `name`, if given.
    pub fn filter(&self, name: &str) -> Option<&str> {
        self.filters.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// How many items to fetch: one more than the page holds tells whether another follows.
    pub fn fetch(&self) -> i64 {
        self.limit + 1
    }

    /// The page of `items` (fetched with [`Page::fetch`]) and where the listing at `path`
    /// goes on after it.
    pub fn finish<T>(&self, path: &str, mut items: Vec<T>, position: impl Fn(&T) -> i64) -> (Vec<T>, Next) {
        let next_cursor = (items.len() as i64 > self.limit).then(|| {
            items.truncate(self.limit as usize);
            items.last().map(|item| position(item).to_string()).unwrap_or_default()
        });
        let next = next_cursor.as_ref().map(|cursor| {
            let mut query = vec![("limit", self.limit.to_string())];
            query.extend(self.filters.iter().cloned());
            query.push(("cursor", cursor.clone()));
            // Values are the caller's own filters, already checked; encoding keeps them intact.
            format!("{path}?{}", serde_urlencoded::to_string(&query).unwrap_or_default())
        });
        (items, Next { next_cursor, next })
    }
}

/// Whose items `caller` lists: their own, or everyone's (`None`) for an admin.
pub fn listed_owner(caller: &Caller) -> Option<String> {
    (!caller.is_admin()).then(|| caller.owner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(e: ApiError) -> String {
        match e {
            ApiError::Invalid { field, .. } => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn limit_cursor_and_filters_are_read_and_anything_else_is_refused_naming_it() {
        let page = Page::parse(Some("limit=5&kind=books&cursor=812"), &["kind", "state"]).unwrap();
        assert_eq!(
            (page.limit, page.before, page.filter("kind"), page.filter("state")),
            (5, Some(812), Some("books"), None)
        );
        assert_eq!(Page::parse(None, &[]).unwrap().limit, DEFAULT_LIMIT);
        for (query, named) in [
            ("limit=0", "limit"),
            ("limit=101", "limit"),
            ("limit=x", "limit"),
            ("cursor=-3", "cursor"),
            ("cursor=abc", "cursor"),
            ("kind=books", "query"),
            ("limit=2&limit=3", "limit"),
        ] {
            assert_eq!(field(Page::parse(Some(query), &[]).unwrap_err()), named, "{query}");
        }
    }

    #[test]
    fn a_full_page_leads_on_with_its_limit_and_filters_and_the_last_does_not() {
        let page = Page::parse(Some("state=queued&limit=2"), &["state"]).unwrap();
        let (items, next) = page.finish("/jobs", vec![9, 7, 4], |n| *n);
        assert_eq!(items, [9, 7]);
        assert_eq!(next.next_cursor.as_deref(), Some("7"));
        assert_eq!(next.next.as_deref(), Some("/jobs?limit=2&state=queued&cursor=7"));
        let (items, next) = page.finish("/jobs", vec![3], |n| *n);
        assert_eq!((items, next.next_cursor, next.next), (vec![3], None, None));
    }
}
