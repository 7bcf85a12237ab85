import EnergyClockDomain
import FoundationEssentials

extension ClockFace {
    /// The face as JSON, for the helper that draws it (`energyclock-render` reads it on standard input).
    public var json: String {
        var w = JSONWriter()
        w.beginObject()
        w.field("day", day.description)
        w.key("sectors")
        w.beginArray()
        for sector in sectors {
            w.beginObject()
            w.field("label", sector.label)
            w.field("start", sector.start.timeIntervalSince1970)
            w.field("end", sector.end.timeIntervalSince1970)
            w.key("parts")
            w.beginArray()
            for part in sector.parts { w.string(part?.rawValue) }
            w.endArray()
            w.field("current", sector.isCurrent)
            if sector.forecast.contains(true) {
                w.key("forecast")
                w.beginArray()
                for flag in sector.forecast { w.bool(flag) }
                w.endArray()
            }
            w.endObject()
        }
        w.endArray()
        // The hand in full: published numbers have six decimals, but the picture must not move.
        w.key("hand")
        w.raw(hand.map { "\($0)" } ?? "null")
        w.field("price", price)
        w.field("band", band?.rawValue)
        w.field("unit", unit)
        w.key("thresholds")
        if let t = thresholds {
            w.beginArray()
            [t.greenMax, t.yellowMax, t.orangeMax].forEach { w.number($0) }
            w.endArray()
        } else {
            w.raw("null")
        }
        w.key("palette")
        w.beginObject()
        for band in Band.allCases { w.field(band.rawValue, palette[band]?.hex) }
        w.endObject()
        w.field("negative_band", negativeBand)
        w.field("source", source)
        w.field("stale", stale)
        w.field("caption", caption)
        if let forecastProvider { w.field("forecast_provider", forecastProvider) }
        if let nowName { w.field("now_name", nowName) }
        if !ratings.isEmpty {
            w.key("ratings")
            w.beginArray()
            for rating in ratings {
                w.beginArray()
                w.string(rating.band.rawValue)
                w.string(rating.text)
                w.endArray()
            }
            w.endArray()
        }
        w.endObject()
        return w.output
    }

    /// A face from its JSON form, or nil when `bytes` is not one.
    public init?(json bytes: [UInt8]) {
        guard case let .object(root)? = JSONValue.parse(bytes), case let .string(dayText)? = root["day"],
            let day = LocalDay(parsing: dayText), case let .array(items)? = root["sectors"], case let .string(unit)? = root["unit"],
            case let .string(source)? = root["source"], case let .bool(stale)? = root["stale"], case let .object(colors)? = root["palette"]
        else { return nil }
        var sectors: [Sector] = []
        for item in items {
            guard case let .object(s) = item, case let .string(label)? = s["label"], case let .number(start)? = s["start"],
                case let .number(end)? = s["end"], case let .array(parts)? = s["parts"], case let .bool(current)? = s["current"]
            else { return nil }
            var sector = Sector(
                label: label, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
                parts: parts.map { if case let .string(name) = $0 { Band(rawValue: name) } else { nil } }, isCurrent: current)
            if case let .array(flags)? = s["forecast"], flags.count == parts.count { sector.forecast = flags.map { $0 == .bool(true) } }
            sectors.append(sector)
        }
        var palette: [Band: RGBColor] = [:]
        for band in Band.allCases { if case let .string(hex)? = colors[band.rawValue] { palette[band] = RGBColor(hex: hex) } }
        var thresholds: Thresholds?
        if case let .array(values)? = root["thresholds"], values.count == 3 {
            let numbers = values.compactMap { if case let .number(n) = $0 { n } else { nil } }
            if numbers.count == 3 { thresholds = Thresholds(greenMax: numbers[0], yellowMax: numbers[1], orangeMax: numbers[2]) }
        }
        func number(_ key: String) -> Double? { if case let .number(n)? = root[key] { n } else { nil } }
        let band: Band? = if case let .string(name)? = root["band"] { Band(rawValue: name) } else { nil }
        self.init(
            day: day, sectors: sectors, hand: number("hand"), price: number("price"), band: band, unit: unit, thresholds: thresholds,
            palette: palette, source: source, stale: stale,
            caption: { if case let .string(text)? = root["caption"] { text } else { nil } }())
        negativeBand = root["negative_band"] == .bool(true)
        if case let .string(provider)? = root["forecast_provider"] { forecastProvider = provider }
        if case let .string(name)? = root["now_name"] { nowName = name }
        if case let .array(entries)? = root["ratings"] {
            ratings = entries.compactMap { entry in
                guard case let .array(pair) = entry, pair.count == 2, case let .string(name) = pair[0], let band = Band(rawValue: name),
                    case let .string(text) = pair[1]
                else { return nil }
                return Rating(band: band, text: text)
            }
        }
    }
}
