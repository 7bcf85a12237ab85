import EnergyClockCore

extension Configuration {
    /// Options shared by every command.
    static let commonSpecs: [OptionSpec] =
        [
            OptionSpec(
                name: "state-dir", value: "DIR",
                help: "where the store lives (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/energyclock, else ~/.local/state/energyclock)"
            ),
            OptionSpec(name: "timezone", value: "ZONE", help: "IANA zone that defines today (default: Europe/Amsterdam)"),
        ]
        // One address option per source that has an API, from the registry.
        + SourceRegistry.entries.compactMap { entry in entry.urlOption.map { OptionSpec(name: $0, value: "URL", help: entry.urlHelp) } }
        + [
            OptionSpec(
                name: "entsoe-token-file", value: "FILE", help: "file holding the ENTSO-E security token (or set ENERGYCLOCK_ENTSOE_TOKEN)"),
            OptionSpec(
                name: "ecb-url", value: "URL",
                help: "ECB euro reference rates file (default: https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml)"),
            OptionSpec(name: "custom-url", value: "URL", help: "sets the custom_url setting: an http(s):// or file:// price list"),
            OptionSpec(name: "palette", value: "BAND=#RRGGBB,…", help: "sets band colours, e.g. green=#00FF00,red=#FF0000"),
            OptionSpec(name: "brightness", value: "BAND=N,…", help: "sets LED brightness per band, 0-255, e.g. green=64,red=255"),
            OptionSpec(name: "fetch-timeout", value: "SECONDS", help: "HTTP time-out per request, 1-300 (default: 20)"),
            OptionSpec(name: "max-body-bytes", value: "BYTES", help: "largest price response accepted (default: 8388608)"),
            OptionSpec(
                name: "log-level", value: "LEVEL",
                help: "debug, info, warning or error (default: info for run, warning for prices, clock and render)"),
        ]

    /// Options of `energyclock run`.
    static let runSpecs: [OptionSpec] =
        [
            OptionSpec(name: "mqtt-host", value: "HOST", help: "broker host (default: localhost)"),
            OptionSpec(name: "mqtt-port", value: "PORT", help: "broker port (default: 1883)"),
            OptionSpec(name: "mqtt-username", value: "USER", help: "broker user name"),
            OptionSpec(
                name: "mqtt-password-file", value: "FILE", help: "file holding the broker password (or set ENERGYCLOCK_MQTT_PASSWORD)"),
            OptionSpec(
                name: "mqtt-tls", value: nil, help: "connect with TLS (default: on for port 8883, or when a CA or certificate is given)"),
            OptionSpec(
                name: "mqtt-ca-file", value: "FILE", help: "PEM file of the CA certificates to trust (default: the system's CA store)"),
            OptionSpec(name: "mqtt-ca-path", value: "DIR", help: "directory of hashed CA certificates to trust"),
            OptionSpec(name: "mqtt-cert-file", value: "FILE", help: "PEM client certificate, for brokers that require one"),
            OptionSpec(name: "mqtt-key-file", value: "FILE", help: "PEM private key of the client certificate"),
            OptionSpec(
                name: "mqtt-key-password-file", value: "FILE",
                help: "file holding the key's passphrase (or set ENERGYCLOCK_MQTT_KEY_PASSWORD)"),
            OptionSpec(
                name: "mqtt-tls-insecure", value: nil, help: "skip the check that the broker's certificate names the host (insecure)"),
            OptionSpec(
                name: "mqtt-client-id", value: "ID", help: "client id (default: energyclock-<hostname>-<hash of the state directory>)"),
            OptionSpec(name: "mqtt-version", value: "VERSION", help: "5 or 3.1.1 (default: 5)"),
            OptionSpec(name: "mqtt-keepalive", value: "SECONDS", help: "keepalive, 5-3600 (default: 60)"),
            OptionSpec(name: "topic-prefix", value: "PREFIX", help: "root of the topic tree (default: energyclock)"),
            OptionSpec(
                name: "tomorrow-hour", value: "HOUR", help: "local hour from which tomorrow's prices are polled, 0-23 (default: 13)"),
            OptionSpec(name: "poll-interval", value: "SECONDS", help: "pause between polls for due prices, 30-3600 (default: 300)"),
            OptionSpec(name: "allow-remote-url", value: nil, help: "let custom_url be changed over MQTT (off: such changes are refused)"),
            OptionSpec(
                name: "ha-discovery", value: "MODE",
                help: "Home Assistant discovery: true, false, or remove to delete the entities (default: true)"),
            OptionSpec(name: "ha-discovery-prefix", value: "PREFIX", help: "Home Assistant's discovery prefix (default: homeassistant)"),
            OptionSpec(
                name: "led", value: "TYPE:TOPIC",
                help:
                    "drive a light: wled:<topic>, wled-ring:<topic>[,leds=N,mode=day|ahead,offset=N,reverse], z2m:<name>, tasmota:<topic> or json:<topic>; repeatable",
                repeatable: true),
            OptionSpec(name: "z2m-base-topic", value: "TOPIC", help: "Zigbee2MQTT's base topic (default: zigbee2mqtt)"),
            OptionSpec(
                name: "reply-topic-prefix", value: "TOPIC",
                help: "MQTT 5 answers go only to this topic and below; repeatable (default: <prefix>/reply and reply)",
                repeatable: true),
            OptionSpec(
                name: "settings", value: "JSON",
                help: "settings applied at start, as on settings/set, e.g. {\"source\":\"entsoe\",\"zone\":\"BE\"}"),
            OptionSpec(
                name: "options-file", value: "FILE",
                help: "read options from a JSON file such as a Home Assistant add-on's /data/options.json; flags and variables win"),
            OptionSpec(name: "clock-image", value: nil, help: "publish the clock as PNG and SVG on clock/png and clock/svg (default: on)"),
            OptionSpec(name: "cheapest-hours", value: "N,N,…", help: "window lengths for cheapest/<N>h, 1-24 (default: 1,2,3,4)"),
            OptionSpec(name: "influx-url", value: "URL", help: "also write line protocol here, e.g. http://localhost:8086/write?db=energy"),
            OptionSpec(name: "influx-token-file", value: "FILE", help: "InfluxDB 2.x/3.x token file (or set ENERGYCLOCK_INFLUX_TOKEN)"),
            OptionSpec(
                name: "influx-username", value: "USER", help: "InfluxDB 1.x user; the password comes from ENERGYCLOCK_INFLUX_PASSWORD"),
        ] + commonSpecs

    /// Options of `energyclock health`.
    static let healthSpecs: [OptionSpec] =
        [
            OptionSpec(
                name: "max-offline", value: "SECONDS",
                help: "unhealthy once the broker has been gone this long, 10-86400 (default: 120)")
        ] + commonSpecs

    /// Options of `energyclock clock`.
    static let clockSpecs: [OptionSpec] =
        [
            OptionSpec(name: "tomorrow", value: nil, help: "draw tomorrow instead of today"),
            OptionSpec(name: "date", value: "YYYY-MM-DD", help: "draw this local day instead, from the cache or the source"),
        ] + commonSpecs

    /// Options of `energyclock render`.
    static let renderSpecs: [OptionSpec] =
        [
            OptionSpec(name: "svg", value: "FILE", help: "write the clock as SVG to FILE (- for standard output)"),
            OptionSpec(name: "png", value: "FILE", help: "write the clock as PNG to FILE (- for standard output)"),
        ] + clockSpecs

    /// Options of `energyclock prices`.
    static let pricesSpecs: [OptionSpec] =
        [
            OptionSpec(name: "json", value: nil, help: "print JSON instead of a table"),
            OptionSpec(name: "date", value: "YYYY-MM-DD", help: "show this local day instead of today and tomorrow"),
            OptionSpec(name: "source", value: "SOURCE", help: "ask this source instead of the chosen one"),
        ] + commonSpecs
}
