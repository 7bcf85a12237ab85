import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockSources
import FoundationEssentials

/// Where the store lives, which day is today, and how much to log: every command's options.
enum CommonOptions {
    static let stateDir = Option.optional(
        "state-dir", "DIR", "where the store lives",
        shown: "$STATE_DIRECTORY, else $XDG_STATE_HOME/energyclock, else ~/.local/state/energyclock")
    static let timezone = Option.text("timezone", "ZONE", "IANA zone that defines today", default: "Europe/Amsterdam")
    static let logLevel = Option.optional(
        "log-level", "LEVEL", "debug, info, warning or error", shown: "info for run, warning for prices, clock and render")

    static let specs = [stateDir.spec, timezone.spec, logLevel.spec]
}

/// Where prices and exchange rates come from, and how far an answer is trusted.
enum SourceOptions {
    /// One address option per source and forecast provider that has an API, from the registries.
    static let sourceURLs: [(id: String, option: Option<URL?>)] =
        SourceRegistry.entries.compactMap { entry in entry.urlOption.map { (entry.id, Option.url($0, entry.urlHelp)) } }
        + ForecastRegistry.entries.compactMap { entry in entry.urlOption.map { (entry.id, Option.url($0, entry.urlHelp)) } }
        + CarbonRegistry.entries.compactMap { entry in entry.urlOption.map { (entry.id, Option.url($0, entry.urlHelp)) } }
    static let entsoeTokenFile = Option.optional(
        "entsoe-token-file", "FILE", "file holding the ENTSO-E security token (or set ENERGYCLOCK_ENTSOE_TOKEN)")
    static let tibberTokenFile = Option.optional(
        "tibber-token-file", "FILE", "file holding the Tibber personal token (or set ENERGYCLOCK_TIBBER_TOKEN)")
    static let energyforecastTokenFile = Option.optional(
        "energyforecast-token-file", "FILE", "file holding the energyforecast.de token (or set ENERGYCLOCK_ENERGYFORECAST_TOKEN)")
    static let energypriceforecastKeyFile = Option.optional(
        "energypriceforecast-key-file", "FILE",
        "file holding an energypriceforecast.eu key, for 120 hours instead of 48 (or set ENERGYCLOCK_ENERGYPRICEFORECAST_KEY)")
    static let ecbURL = Option.url("ecb-url", "ECB euro reference rates file", default: ExchangeRateFeed.defaultURL)
    static let fetchTimeout = Option.number("fetch-timeout", "SECONDS", "HTTP time-out per request", in: 1...300, default: 20)
    static let maxBodyBytes = Option.integer(
        "max-body-bytes", "BYTES", "largest price response accepted", in: 1024...(256 << 20), default: 8 << 20)

    static let specs =
        sourceURLs.map(\.option.spec) + [
            entsoeTokenFile.spec, tibberTokenFile.spec, energyforecastTokenFile.spec, energypriceforecastKeyFile.spec, ecbURL.spec,
            fetchTimeout.spec, maxBodyBytes.spec,
        ]
}

/// Settings given on the command line, applied over the saved ones at start.
enum SettingOptions {
    static let customURL = Option.optional("custom-url", "URL", "sets the custom_url setting: an http(s):// or file:// price list")
    static let palette = Option.optional("palette", "BAND=#RRGGBB,…", "sets band colours, e.g. green=#00FF00,red=#FF0000")
    static let brightness = Option.optional("brightness", "BAND=N,…", "sets LED brightness per band, 0-255, e.g. green=64,red=255")

    static let specs = [customURL.spec, palette.spec, brightness.spec]
}

/// How to reach the broker.
enum BrokerOptions {
    static let host = Option.text(
        "mqtt-host", "HOST", "broker host, or several as host[:port],… tried in turn when one fails", default: "localhost")
    static let port = Option.integer("mqtt-port", "PORT", "broker port", in: 1...65535, default: 1883)
    static let username = Option.optional("mqtt-username", "USER", "broker user name")
    static let passwordFile = Option.optional(
        "mqtt-password-file", "FILE", "file holding the broker password (or set ENERGYCLOCK_MQTT_PASSWORD)")
    static let tls = Option<Bool?>.flag("mqtt-tls", "connect with TLS", shown: "on for port 8883, or when a CA or certificate is given")
    static let caFile = Option.optional("mqtt-ca-file", "FILE", "PEM file of the CA certificates to trust", shown: "the system's CA store")
    static let caPath = Option.optional("mqtt-ca-path", "DIR", "directory of hashed CA certificates to trust")
    static let certFile = Option.optional("mqtt-cert-file", "FILE", "PEM client certificate, for brokers that require one")
    static let keyFile = Option.optional("mqtt-key-file", "FILE", "PEM private key of the client certificate")
    static let keyPasswordFile = Option.optional(
        "mqtt-key-password-file", "FILE", "file holding the key's passphrase (or set ENERGYCLOCK_MQTT_KEY_PASSWORD)")
    static let tlsInsecure = Option.flag("mqtt-tls-insecure", "skip the check that the broker's certificate names the host (insecure)")
    static let clientID = Option.optional(
        "mqtt-client-id", "ID", "client id", shown: "energyclock-<hostname>-<hash of the state directory>")
    static let version = Option.text("mqtt-version", "VERSION", "5 or 3.1.1", default: "5")
    static let keepalive = Option.integer("mqtt-keepalive", "SECONDS", "keepalive", in: 5...3600, default: 60)

    static let specs = [
        host.spec, port.spec, username.spec, passwordFile.spec, tls.spec, caFile.spec, caPath.spec, certFile.spec, keyFile.spec,
        keyPasswordFile.spec, tlsInsecure.spec, clientID.spec, version.spec, keepalive.spec,
    ]
}

/// What the daemon publishes, and where.
enum OutputOptions {
    static let topicPrefix = Option.text("topic-prefix", "PREFIX", "root of the topic tree", default: "energyclock")
    static let haDiscovery = Option.text(
        "ha-discovery", "MODE", "Home Assistant discovery: true, false, or remove to delete the entities", default: "true")
    static let haDiscoveryPrefix = Option.text(
        "ha-discovery-prefix", "PREFIX", "Home Assistant's discovery prefix", default: "homeassistant")
    static let led = Option.list(
        "led", "TYPE:TOPIC",
        "drive a light: wled:<topic>, wled-ring:<topic>[,leds=N,mode=day|ahead,offset=N,reverse], z2m:<name>, tasmota:<topic> or json:<topic>, each with @PROFILE to follow another profile than the first; repeatable"
    )
    static let z2mBaseTopic = Option.text("z2m-base-topic", "TOPIC", "Zigbee2MQTT's base topic", default: "zigbee2mqtt")
    static let replyTopicPrefix = Option.list(
        "reply-topic-prefix", "TOPIC", "MQTT 5 answers go only to this topic and below; repeatable", shown: "<prefix>/reply and reply")
    static let clockImage = Option.flag("clock-image", "publish the clock as PNG and SVG on clock/png and clock/svg", default: true)
    static let cheapestHours = Option.text("cheapest-hours", "N,N,…", "window lengths for cheapest/<N>h, 1-24", default: "1,2,3,4")
    static let influxURL = Option<URL?>.url("influx-url", "also write line protocol here, e.g. http://localhost:8086/write?db=energy")
    static let influxTokenFile = Option.optional(
        "influx-token-file", "FILE", "InfluxDB 2.x/3.x token file (or set ENERGYCLOCK_INFLUX_TOKEN)")
    static let influxUsername = Option.optional(
        "influx-username", "USER", "InfluxDB 1.x user; the password comes from ENERGYCLOCK_INFLUX_PASSWORD")

    static let specs = [
        topicPrefix.spec, haDiscovery.spec, haDiscoveryPrefix.spec, led.spec, z2mBaseTopic.spec, replyTopicPrefix.spec,
        clockImage.spec, cheapestHours.spec, influxURL.spec, influxTokenFile.spec, influxUsername.spec,
    ]
}

/// How the daemon runs: its fetch timing, its settings at start, what it lets the broker change.
enum DaemonOptions {
    static let tomorrowHour = Option.integer(
        "tomorrow-hour", "HOUR",
        "local hour from which tomorrow's prices are polled, for every source; not given, "
            + "each source's own hour (octopus: 16:00 UK time)", in: 0...23, default: RefreshSchedule.Policy.defaultTomorrowHour)
    static let pollInterval = Option.integer(
        "poll-interval", "SECONDS", "pause between polls for due prices", in: 30...3600, default: 300)
    static let allowRemoteURL = Option.flag("allow-remote-url", "let custom_url be changed over MQTT; when off, such changes are refused")
    static let settings = Option.optional(
        "settings", "JSON", "settings applied at start, as on settings/set, e.g. {\"source\":\"entsoe\",\"zone\":\"BE\"}")
    static let optionsFile = Option.optional(
        "options-file", "FILE",
        "read options from a JSON file such as a Home Assistant add-on's /data/options.json; flags and variables win")

    static let specs = [tomorrowHour.spec, pollInterval.spec, allowRemoteURL.spec, settings.spec, optionsFile.spec]
}

/// Which day a one-shot command shows, and how.
enum DayOptions {
    static let date = Option.optional("date", "YYYY-MM-DD", "show this local day, from the cache or the source", shown: "today")
    static let tomorrow = Option.flag("tomorrow", "draw tomorrow instead of today")
    static let svg = Option.optional("svg", "FILE", "write the clock as SVG to FILE (- for standard output)")
    static let png = Option.optional("png", "FILE", "write the clock as PNG to FILE (- for standard output)")
    static let json = Option.flag("json", "print JSON instead of a table")
    static let source = Option.optional("source", "SOURCE", "ask this source instead of the chosen one")
    static let profile = Option.optional("profile", "NAME", "show this profile instead of the first", shown: "default")
}

/// What `energyclock health` checks.
enum HealthOptions {
    static let maxOffline = Option.integer(
        "max-offline", "SECONDS", "unhealthy once the broker has been gone this long", in: 10...86_400, default: 120)
}
