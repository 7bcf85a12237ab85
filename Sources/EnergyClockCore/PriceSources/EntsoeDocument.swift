import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

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

    /// Reads `data` with FoundationXML's streaming parser.
    static func read(_ data: Data) throws(ReadError) -> EntsoeDocument {
        // FoundationXML crashes on a name that is not UTF-8 (`<\u{FF}`), so nothing else reaches it.
        // ENTSO-E answers in UTF-8.
        guard String(validating: data, as: UTF8.self) != nil else { throw ReadError(reason: "the answer is not UTF-8 text") }
        let delegate = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = true
        guard parser.parse(), delegate.failure == nil else {
            throw ReadError(reason: delegate.failure ?? "not well-formed XML (line \(parser.lineNumber))")
        }
        guard delegate.isComplete else { throw ReadError(reason: "not well-formed XML: the document is truncated") }
        guard delegate.sawRoot else { throw ReadError(reason: "not a Publication_MarketDocument or Acknowledgement_MarketDocument") }
        return delegate.document
    }

    /// Collects element text by path; only the elements prices need are kept.
    private final class Reader: NSObject, XMLParserDelegate {
        var document = EntsoeDocument()
        var failure: String?
        var sawRoot = false
        private var path: [String] = []
        /// Every element that was opened was closed.
        var isComplete: Bool { path.isEmpty }
        private var text = ""
        private var series: Series?
        private var period: Period?
        private var point: Point?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if path.isEmpty {
                switch name {
                case "Publication_MarketDocument": sawRoot = true
                case "Acknowledgement_MarketDocument":
                    sawRoot = true
                    document.acknowledgement = Acknowledgement()
                default:
                    failure = "unexpected document <\(name)>"
                    parser.abortParsing()
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

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch (parent, name) {
            case ("Point", "position"): point?.position = Int(value) ?? 0
            case ("Point", "price.amount"):
                guard let amount = Double(value), amount.isFinite else {
                    failure = "price.amount \"\(value.prefix(40))\" is not a number"
                    parser.abortParsing()
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
            path.removeLast()
            text = ""
        }
    }
}
