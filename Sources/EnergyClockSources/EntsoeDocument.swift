import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials

/// The parts of an ENTSO-E market or acknowledgement document that prices need.
struct EntsoeDocument {
    struct Point {
        var position = 0
        var amount = 0.0
    }

    struct Period {
        var start = ""
        var end = ""
        var resolution = ""
        var points: [Point] = []
    }

    struct Series {
        var currency = ""
        var measureUnit = ""
        var curveType = "A01"
        var classificationPosition: Int?
        var periods: [Period] = []
    }

    struct Acknowledgement {
        var code = ""
        var text = ""
    }

    var series: [Series] = []
    var acknowledgement: Acknowledgement?

    /// A document that could not be read, with a short reason.
    struct ReadError: Error {
        let reason: String
    }

    /// Reads `data` with the streaming XML reader.
    static func read(_ data: Data) throws(ReadError) -> EntsoeDocument {
        var collector = Collector()
        do {
            try XMLStream.read(data) { event in
                switch event {
                case let .start(name, _): collector.start(name)
                case let .text(text): collector.text += text
                case let .end(name): collector.end(name)
                }
                return collector.failure
            }
        } catch {
            throw ReadError(reason: error.reason)
        }
        guard collector.isComplete else { throw ReadError(reason: "not well-formed XML: the document is truncated") }
        guard collector.sawRoot else { throw ReadError(reason: "not a Publication_MarketDocument or Acknowledgement_MarketDocument") }
        return collector.document
    }

    /// Collects element text by path; only the elements prices need are kept.
    private struct Collector {
        var document = EntsoeDocument()
        var failure: String?
        var sawRoot = false
        private var path: [String] = []
        /// Every element that was opened was closed.
        var isComplete: Bool { path.isEmpty }
        var text = ""
        private var series: Series?
        private var period: Period?
        private var point: Point?

        mutating func start(_ name: String) {
            if path.isEmpty {
                switch name {
                case "Publication_MarketDocument": sawRoot = true
                case "Acknowledgement_MarketDocument":
                    sawRoot = true
                    document.acknowledgement = Acknowledgement()
                default:
                    failure = "unexpected document <\(name.prefix(60))>"
                    return
                }
            }
            path.append(name)
            text = ""
            switch name {
            case "TimeSeries": series = Series()
            case "Period": period = Period()
            case "Point": point = Point()
            default: break
            }
        }

        mutating func end(_ name: String) {
            let value = text.trimmed
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch (parent, name) {
            case ("Point", "position"): point?.position = Int(value) ?? 0
            case ("Point", "price.amount"):
                guard let amount = Bounded.decimal(value) else {
                    failure = "price.amount \(Quote.json(value, limit: 40)) is not a number"
                    return
                }
                point?.amount = amount
            case ("Period", "Point"):
                if let point { period?.points.append(point) }
                point = nil
            case ("timeInterval", "start") where path.contains("Period"): period?.start = value
            case ("timeInterval", "end") where path.contains("Period"): period?.end = value
            case ("Period", "resolution"): period?.resolution = value
            case ("TimeSeries", "Period"):
                if let period { series?.periods.append(period) }
                period = nil
            case ("TimeSeries", "currency_Unit.name"): series?.currency = value
            case ("TimeSeries", "price_Measure_Unit.name"): series?.measureUnit = value
            case ("TimeSeries", "curveType"): series?.curveType = value
            case (_, "classificationSequence_AttributeInstanceComponent.position"):
                series?.classificationPosition = Int(value)
            case (_, "TimeSeries"):
                if let series { document.series.append(series) }
                series = nil
            case ("Reason", "code"): document.acknowledgement?.code = value
            case ("Reason", "text"): document.acknowledgement?.text = value
            default: break
            }
            if !path.isEmpty { path.removeLast() }
            text = ""
        }
    }
}
