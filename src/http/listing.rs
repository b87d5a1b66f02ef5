//! What every listing shares (`GET /books`, `/printruns`, `/oneup/books`,
//! `/crosswords/fills`, `/jobs`): the caller's own items (an admin's: everyone's), newest
//! first, `limit` at a time, and an opaque `cursor` (the previous page's `next_cursor`) to
//! continue; `next` is the following page's address, with the same filters.

use axum::extract::RawQuery;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::{PartialSchema, ToSchema};

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::respond::echo;
use super::AppState;

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
    pub(crate) next_cursor: Option<String>,
    /// The next page's address (with the same `limit` and filters); null on the last page.
    #[schema(required = true)]
    pub(crate) next: Option<String>,
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

/// A summary and a description (empty: none) in the API description.
pub struct Doc {
    summary: &'static str,
    description: &'static str,
}

/// What a listing's pages hold and how it is documented (and, for resources their owner
/// deletes, `DELETE {route}/{id}`).
pub struct Listing {
    /// The member of a page that holds its items (`fills`), and what messages call them.
    member: &'static str,
    what: &'static str,
    /// The name of a page's schema.
    schema: &'static str,
    list: Doc,
    /// The web page a browser's visit (`Accept` naming `text/html`) gets instead, if any.
    web_page: Option<&'static str>,
    /// `DELETE {route}/{id}`, if their owner may delete them, and what `{id}` is.
    delete: Option<(Doc, &'static str)>,
}

impl Listing {
    pub const fn of(member: &'static str, schema: &'static str, summary: &'static str) -> Listing {
        let list = Doc { summary, description: "" };
        Listing { member, what: member, schema, list, web_page: None, delete: None }
    }

    pub const fn called(self, what: &'static str) -> Listing {
        Listing { what, ..self }
    }

    pub const fn described(self, description: &'static str) -> Listing {
        Listing { list: Doc { description, ..self.list }, ..self }
    }

    pub const fn web_page(self, page: &'static str) -> Listing {
        Listing { web_page: Some(page), ..self }
    }

    /// Deleted by `DELETE {route}/{id}`, `id` described as `id`.
    pub const fn deleted(self, id: &'static str, summary: &'static str, description: &'static str) -> Listing {
        Listing { delete: Some((Doc { summary, description }, id)), ..self }
    }
}

/// Something a caller lists a page at a time at `route()`.
pub(crate) trait Listed: Send + Sync + 'static {
    type Item: Serialize + ToSchema + Send;
    const LISTING: Listing;
    /// The filters it takes besides `limit` and `cursor`.
    const FILTERS: &'static [&'static str] = &[];

    fn route() -> String;

    /// The filters' documentation.
    fn filters() -> Vec<utoipa::openapi::path::Parameter> {
        Vec::new()
    }

    /// The caller's items on `page`, and where the listing goes on.
    fn items<'a>(
        state: &'a AppState,
        caller: &'a Caller,
        page: &'a Page,
    ) -> impl std::future::Future<Output = Result<(Vec<Self::Item>, Next), ApiError>> + Send + 'a;
}

/// A page of a listing: its items under the listing's member, then where it goes on.
struct ListPage<T> {
    member: &'static str,
    items: Vec<T>,
    next: Next,
}

impl<T: Serialize> Serialize for ListPage<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry(self.member, &self.items)?;
        map.serialize_entry("next_cursor", &self.next.next_cursor)?;
        map.serialize_entry("next", &self.next.next)?;
        map.end()
    }
}

/// `GET {route}`: a page of the caller's items (an admin's: everyone's), newest first.
pub async fn list<L: Listed>(
    Call { state, caller }: Call,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let listing = &L::LISTING;
    if let Some(page) = listing.web_page.filter(|_| super::pages::wants_page(&headers)) {
        return super::pages::negotiated_page(page, &headers);
    }
    caller.require_key(&format!("listing {}", listing.what))?;
    let page = Page::parse(query.as_deref(), L::FILTERS)?;
    let (items, next) = L::items(&state, &caller, &page).await?;
    let mut response = Json(ListPage { member: listing.member, items, next }).into_response();
    if listing.web_page.is_some() {
        response.headers_mut().insert(header::VARY, HeaderValue::from_static("accept"));
    }
    Ok(response)
}

/// Documents `L`'s listing (and deletion) in `doc`.
pub fn document<L: Listed>(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::path::{HttpMethod, OperationBuilder};
    use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, ObjectBuilder, Type};
    use utoipa::openapi::{Content, Ref, RefOr, ResponseBuilder, Responses};
    use utoipa::IntoParams;
    let listing = &L::LISTING;
    let route = L::route();
    let tag = route.split('/').nth(1).unwrap_or_default().to_string();
    let refer = |name: &str| RefOr::Ref(Ref::from_response_name(name));
    let items = ArrayBuilder::new().items(Ref::from_schema_name(L::Item::name())).description(Some("Newest first."));
    let page = AllOfBuilder::new()
        .item(Ref::from_schema_name(Next::name()))
        .item(ObjectBuilder::new().schema_type(Type::Object).property(listing.member, items).required(listing.member))
        .description(Some(format!("A page of the caller's {}.", listing.what)));
    let components = doc.components.get_or_insert_with(Default::default);
    let mut schemas = vec![(Next::name().into(), Next::schema()), (L::Item::name().into(), L::Item::schema())];
    L::Item::schemas(&mut schemas);
    for (name, schema) in schemas {
        components.schemas.entry(name).or_insert(schema);
    }
    components.schemas.insert(listing.schema.into(), page.into());
    let browser = if listing.web_page.is_some() { "; the web page for a browser" } else { "" };
    let mut ok = ResponseBuilder::new()
        .description(format!("A page of {}{browser}.", listing.what))
        .content("application/json", Content::new(Some(Ref::from_schema_name(listing.schema))));
    if listing.web_page.is_some() {
        ok = ok.content("text/html", Content::new(Some(ObjectBuilder::new().schema_type(Type::String))));
    }
    let mut responses = Responses::new();
    responses.responses.insert("200".into(), ok.build().into());
    responses.responses.insert("422".into(), refer("Invalid"));
    let mut params = ListQuery::into_params(|| None);
    params.extend(L::filters());
    let get = OperationBuilder::new()
        .tag(tag.clone())
        .summary(Some(listing.list.summary))
        .description((!listing.list.description.is_empty()).then_some(listing.list.description))
        .parameters(Some(params))
        .responses(responses);
    doc.paths.add_path_operation(&route, vec![HttpMethod::Get], get.build());
    let Some((delete, id)) = &listing.delete else { return };
    let mut responses = Responses::new();
    responses.responses.insert("204".into(), ResponseBuilder::new().description("Deleted.").build().into());
    responses.responses.insert("409".into(), refer("Conflict"));
    let operation = OperationBuilder::new()
        .tag(tag)
        .summary(Some(delete.summary))
        .description(Some(delete.description))
        .parameters(Some([super::openapi::uuid_id(id)]))
        .responses(responses);
    doc.paths.add_path_operation(format!("{route}/{{id}}"), vec![HttpMethod::Delete], operation.build());
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
