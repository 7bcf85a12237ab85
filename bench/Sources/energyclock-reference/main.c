// The least a daemon must do for a settings round trip, as a yardstick for energyclock's.
//
// It follows `PREFIX/settings/+/set`, keeps each value durably and publishes the band the value
// gives a price of 0.0605 EUR/kWh to `PREFIX/color`, retained at QoS 1, as energyclock publishes
// `energyclock/color`. Nothing else: no validation, no snapshot, no other topic, one
// thread (libmosquitto's own loop, the callback on it). `bench/run.sh` times it with the same
// client, broker and changes as the daemon, so the figure is what the machine allows once a
// change is read, kept and answered.
//
// It can also stand for the slot boundary: `boundaries` publishes the second's number to
// `PREFIX/price`, retained at QoS 1, at every second of the wall clock, from one thread that
// waits in libmosquitto's loop until half a millisecond before the second and spins the rest,
// and writes the message itself, as soon as the second begins.
//
// usage: energyclock-reference PORT DIR none|file|sqlite|boundaries PREFIX
//   none        nothing kept: the broker's part of a round trip alone
//   file        one 4 KiB block rewritten in place and fdatasync'ed: the floor's own fsync
//   sqlite      one row replaced in SQLite, write-ahead log, synchronous=FULL, the log kept in
//               place and restarted within its file, as energyclock's store keeps it
//   boundaries  no store; the price at each second
#include <fcntl.h>
#include <mosquitto.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int block_fd = -1;
static sqlite3 *db;
static sqlite3_stmt *replace;
static char text[4096];
static int keeps = 1;
static char color_topic[256], price_topic[256], settings_filter[256];

static int keep(const char *value) {
    if (!keeps) return 0;
    if (db == NULL) {
        memset(text, ' ', sizeof text);
        int n = snprintf(text, sizeof text, "{\"green_max\":%s}", value);
        if (n < 0 || n >= (int)sizeof text) return -1;
        if (pwrite(block_fd, text, sizeof text, 0) != (ssize_t)sizeof text) return -1;
        return fdatasync(block_fd);
    }
    // About the size of energyclock's settings row.
    int n = snprintf(text, sizeof text, "{\"green_max\":%s,\"rest\":\"%01200d\"}", value, 0);
    if (n < 0 || n >= (int)sizeof text) return -1;
    sqlite3_reset(replace);
    sqlite3_bind_text(replace, 1, text, n, SQLITE_STATIC);
    return sqlite3_step(replace) == SQLITE_DONE ? 0 : -1;
}

static void on_message(struct mosquitto *client, void *context, const struct mosquitto_message *message) {
    (void)context;
    char value[64] = {0};
    if (message->payloadlen <= 0 || message->payloadlen >= (int)sizeof value) return;
    memcpy(value, message->payload, (size_t)message->payloadlen);
    if (keep(value) != 0) {
        fprintf(stderr, "energyclock-reference: could not keep %s\n", value);
        return;
    }
    const char *band = 0.0605 <= atof(value) ? "green" : "yellow";
    mosquitto_publish(client, NULL, color_topic, (int)strlen(band), band, 1, true);
}

static void on_connect(struct mosquitto *client, void *context, int result) {
    (void)context;
    if (result == 0) mosquitto_subscribe(client, NULL, settings_filter, 1);
}

static int open_store(const char *directory, const char *mode) {
    char path[4096];
    keeps = strcmp(mode, "none") != 0 && strcmp(mode, "boundaries") != 0;
    if (!keeps) return 0;
    if (strcmp(mode, "file") == 0) {
        snprintf(path, sizeof path, "%s/reference-block", directory);
        block_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        return block_fd < 0 || keep("0") != 0;
    }
    if (strcmp(mode, "sqlite") != 0) return 1;
    snprintf(path, sizeof path, "%s/reference.sqlite", directory);
    if (sqlite3_open(path, &db) != SQLITE_OK) return 1;
    int persist = 1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    if (sqlite3_exec(db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=0;"
                     "CREATE TABLE IF NOT EXISTS settings(profile TEXT PRIMARY KEY, json TEXT NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO settings(profile, json) VALUES('default', ?1)", -1,
                           &replace, NULL) != SQLITE_OK)
        return 1;
    // Grow the log to the blocks the changes will use, then copy it into the database: the
    // next commit starts the log over at its beginning, within blocks the file already has.
    for (int i = 0; i < 512; i++)
        if (keep("0") != 0) return 1;
    return sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) != SQLITE_OK;
}

static double wall_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

// The price at every second: waits in the loop until 0.5 ms before it, spins to it, publishes.
static int publish_boundaries(struct mosquitto *client) {
    for (;;) {
        double next = (double)((long long)wall_seconds() + 1);
        for (double left = next - wall_seconds(); left > 0.0005; left = next - wall_seconds()) {
            int result = mosquitto_loop(client, (int)((left - 0.0005) * 1000), 1);
            if (result != MOSQ_ERR_SUCCESS) return 1;
        }
        while (wall_seconds() < next) {
        }
        char payload[32];
        int n = snprintf(payload, sizeof payload, "%lld", (long long)next);
        mosquitto_publish(client, NULL, price_topic, n, payload, 1, true);
    }
}

int main(int argc, char **argv) {
    if (argc != 5 || strlen(argv[4]) > 200) {
        fprintf(stderr, "usage: energyclock-reference PORT DIR none|file|sqlite|boundaries PREFIX\n");
        return 2;
    }
    snprintf(color_topic, sizeof color_topic, "%s/color", argv[4]);
    snprintf(price_topic, sizeof price_topic, "%s/price", argv[4]);
    snprintf(settings_filter, sizeof settings_filter, "%s/settings/+/set", argv[4]);
    int port = atoi(argv[1]);
    if (port <= 0 || port > 65535 || open_store(argv[2], argv[3]) != 0) {
        fprintf(stderr, "energyclock-reference: bad port or store %s in %s\n", argv[3], argv[2]);
        return 1;
    }
    mosquitto_lib_init();
    // A client id of its own, so that references side by side do not take over each other.
    struct mosquitto *client = mosquitto_new(NULL, true, NULL);
    if (client == NULL) return 1;
    mosquitto_int_option(client, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_connect_callback_set(client, on_connect);
    mosquitto_message_callback_set(client, on_message);
    if (mosquitto_connect(client, "127.0.0.1", port, 60) != MOSQ_ERR_SUCCESS) return 1;
    // The price starts green, as energyclock's defaults make it.
    if (strcmp(argv[3], "boundaries") == 0) return publish_boundaries(client);
    mosquitto_publish(client, NULL, color_topic, 5, "green", 1, true);
    mosquitto_loop_forever(client, -1, 1);
    return 0;
}
