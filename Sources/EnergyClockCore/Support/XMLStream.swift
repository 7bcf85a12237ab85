internal import CXML2
import FoundationEssentials

/// A streaming XML reader over libxml2's `xmlTextReader`: no network, no DTD, no entity expansion,
/// a budget of work and time (``ParseBudget``), and nothing written to standard error.
enum XMLStream {
    /// One step through a document; names are local (without their namespace prefix).
    enum Event {
        case start(name: String, attributes: [String: String])
        case text(String)
        case end(name: String)
    }

    /// Why a document could not be read.
    struct Failure: Error {
        let reason: String
    }

    /// Walks `data` in document order; `visit` returns a reason to stop early, or nil to go on.
    ///
    /// Only UTF-8 is read. Throws when the document is not well-formed, costs more than `budget`
    /// (measured before libxml2 sees it, and by the clock while it reads), its task is cancelled,
    /// or `visit` stops it.
    static func read(
        _ data: some Collection<UInt8>, budget: ParseBudget = .answer, _ visit: (Event) -> String?
    ) throws(Failure) {
        let bytes = Array(data)
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Failure(reason: "the answer is not UTF-8 text") }
        if let excess = bytes.withUnsafeBytes({ budget.excess(of: $0) }) {
            throw Failure(reason: "the document has \(excess), more than any answer needs")
        }
        let meter = ParseBudget.Meter(budget)
        let errors = ErrorLog()
        var stopped: String?
        let outcome: Int32 = bytes.withUnsafeBytes { raw in
            ec_xml_silence()
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count < Int32.max,
                let reader = xmlReaderForMemory(base, Int32(raw.count), nil, "UTF-8", Int32(XML_PARSE_NONET.rawValue))
            else { return -1 }
            defer { xmlFreeTextReader(reader) }
            xmlTextReaderSetErrorHandler(reader, ErrorLog.handler, Unmanaged.passUnretained(errors).toOpaque())
            var rc = xmlTextReaderRead(reader)
            var nodes = 0
            while rc == 1 {
                nodes += 1
                if nodes % 256 == 0, let reason = meter.stop() {
                    stopped = reason
                    return 0
                }
                for event in events(at: reader) {
                    stopped = visit(event)
                    if stopped != nil { return 0 }
                }
                rc = xmlTextReaderRead(reader)
            }
            return rc
        }
        if let stopped { throw Failure(reason: stopped) }
        guard outcome == 0 else { throw Failure(reason: "not well-formed XML (\(errors.first ?? "the reader stopped"))") }
    }

    /// What the reader's current node means: an empty element is a start and an end.
    private static func events(at reader: xmlTextReaderPtr) -> [Event] {
        func string(_ pointer: UnsafePointer<xmlChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let name = string(xmlTextReaderConstLocalName(reader))
            let empty = xmlTextReaderIsEmptyElement(reader) == 1
            var attributes: [String: String] = [:]
            if xmlTextReaderMoveToFirstAttribute(reader) == 1 {
                repeat {
                    attributes[string(xmlTextReaderConstLocalName(reader))] = string(xmlTextReaderConstValue(reader))
                } while xmlTextReaderMoveToNextAttribute(reader) == 1
                xmlTextReaderMoveToElement(reader)
            }
            return empty ? [.start(name: name, attributes: attributes), .end(name: name)] : [.start(name: name, attributes: attributes)]
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            return [.end(name: string(xmlTextReaderConstLocalName(reader)))]
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
            Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            return [.text(string(xmlTextReaderConstValue(reader)))]
        default:
            return []
        }
    }

    /// The first problem libxml2 reports, with its line.
    private final class ErrorLog {
        var first: String?

        static let handler: xmlTextReaderErrorFunc = { context, message, _, locator in
            let log = Unmanaged<ErrorLog>.fromOpaque(context!).takeUnretainedValue()
            guard log.first == nil, let message else { return }
            let line = locator.map { xmlTextReaderLocatorLineNumber($0) } ?? 0
            log.first = "line \(line): " + String(cString: message).trimmed
        }
    }
}
