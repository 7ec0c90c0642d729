# The gateway as a container (docs/deploy.md): a build stage with the toolchain, a runtime
# stage with only what `node dist/server.mjs` loads (scripts/image-files.mjs traces it: about
# 330 MB instead of the 1.2 GB of the whole tree), run as a non-root user, data under /data.

# ---- build: install everything, build Next and the server bundle, then gather into /image
# the files the server loads at run time
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary fits
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build && node scripts/image-files.mjs /image

# ---- runtime
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SHUTDOWN_DRAIN_DELAY_MS=5000 \
    SHUTDOWN_GRACE_MS=30000
RUN groupadd --system --gid 10001 gateway && useradd --system --uid 10001 --gid gateway --home-dir /app gateway \
    && mkdir -p /data && chown gateway:gateway /data
COPY --from=build --chown=gateway:gateway /image/ ./
USER gateway
VOLUME ["/data"]
EXPOSE 3000
# ready = database reachable and migrated, Redis reachable when configured; 503 while draining
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.mjs"]
