# Mirrors the README: `npm install`, build, then `npm start` on Node 24 with DEMO_MODE=0.
# Build stage: everything needed to build (dev dependencies included).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: the same sources, the build and production dependencies only. `npm start` serves
# the build it finds (it cannot rebuild without dev dependencies), after migrating the database.
FROM node:24-slim AS runtime
ENV NODE_ENV=production DEMO_MODE=0 PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY . .
RUN npm prune --omit=dev --no-audit --no-fund
COPY --from=build /app/app/generated ./app/generated
COPY --from=build /app/build ./build
RUN chown -R node:node /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
