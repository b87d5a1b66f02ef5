# syntax=docker/dockerfile:1
# Build: docker build -t puzzlepress .
# Run:   docker run -p 8080:8080 -v puzzlepress-data:/data puzzlepress     (SQLite in the volume)
#        docker run -p 8080:8080 -e DATABASE_URL=postgres://… puzzlepress  (PostgreSQL)
# Secret: -e PUZZLEPRESS_SECRET_FILE=/run/secrets/book_secret plus a read-only mount of that
#        file, or -e PUZZLEPRESS_SECRET; never a command-line argument.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# Cache mounts keep the registry and compiled dependencies between builds.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin puzzlepress \
    && cp target/release/puzzlepress /usr/local/bin/puzzlepress \
    && strip /usr/local/bin/puzzlepress

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --create-home puzzlepress
COPY --from=build /usr/local/bin/puzzlepress /usr/local/bin/puzzlepress
USER puzzlepress
WORKDIR /data
# The SQLite default lives here. Declared after useradd made /data puzzlepress's, so a new
# named volume starts out owned by that user.
VOLUME /data
ENV PUZZLEPRESS_BIND=0.0.0.0:8080 \
    DATABASE_URL=sqlite:///data/puzzlepress.db
EXPOSE 8080
# The binary probes its own /healthz on PUZZLEPRESS_BIND's port (exec form: the image has no
# curl, and its /bin/sh is dash, without /dev/tcp). Its 2 s limit stays under --timeout.
HEALTHCHECK --interval=10s --timeout=3s CMD ["/usr/local/bin/puzzlepress", "health"]
ENTRYPOINT ["/usr/local/bin/puzzlepress"]
CMD ["serve"]
