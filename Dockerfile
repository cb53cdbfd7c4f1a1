# The hall as a container image (docs/deploy.md, "From an empty server"):
#   docker build -t laizi-hall .
#   docker run -p 8765:8765 -v laizi-data:/data laizi-hall            # one container, SQLite
#   docker compose up -d                                               # hall + PostgreSQL + Redis
# The install steps are scripts/install-hall.sh, the same ones CI runs on the built wheel.

FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN python -m pip wheel --no-cache-dir --no-deps -w /dist .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PATH=/opt/laizi/bin:$PATH
COPY --from=build /dist /dist
COPY scripts/install-hall.sh /usr/local/bin/install-hall.sh
RUN bash /usr/local/bin/install-hall.sh /dist/laizi-*.whl /opt/laizi \
    && rm -rf /dist \
    && useradd --system --uid 10001 --home-dir /data --create-home laizi
USER laizi
WORKDIR /data
# Every `laizi serve` flag is also a LAIZI_* variable (docs/deploy.md); the defaults
# here: every address of the container, SQLite in the /data volume. compose.yaml sets
# LAIZI_DB to PostgreSQL and LAIZI_REDIS.
ENV LAIZI_HOST=0.0.0.0 LAIZI_PORT=8765 LAIZI_DB=sqlite+aiosqlite:////data/laizi-hall.db
VOLUME ["/data"]
EXPOSE 8765
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('LAIZI_PORT', '8765') + '/readyz', timeout=2)"
# SIGTERM (docker stop) drains the hall: /readyz 503, rooms stored and handed over,
# clients told to reconnect (1012). Give it time: docker stop -t 30.
STOPSIGNAL SIGTERM
ENTRYPOINT ["laizi"]
CMD ["serve"]
