# ClipShare container image: docker build -t clipshare . (see docs/deployment.md).
# Stage 1 builds the web app and the server; stage 2 installs the server's production
# dependencies only; the final image runs as the unprivileged "node" user.

FROM node:20-bookworm-slim AS build
# better-sqlite3 is a native module: it compiles with python3, make and g++.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM build AS production-deps
RUN rm -rf node_modules server/node_modules web/node_modules \
 && npm ci --omit=dev --workspace server --workspace packages/shared --include-workspace-root=false \
      --no-audit --no-fund \
 && mkdir -p server/node_modules

FROM node:20-bookworm-slim
# MALLOC_MMAP_THRESHOLD_: scrypt's 16 MB blocks go back to the system after each password check
# (docs/deployment.md, "Memory").
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=production-deps /src/package.json ./
COPY --from=production-deps /src/node_modules ./node_modules
COPY --from=production-deps /src/server/package.json ./server/
# Packages npm could not hoist (version conflicts) stay beside the server.
COPY --from=production-deps /src/server/node_modules ./server/node_modules
COPY --from=build /src/server/dist ./server/dist
COPY --from=build /src/web/dist ./web/dist
# DATA_DIR holds the SQLite database (single node), the generated secret and LOCAL storage.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/dist/main.js"]
