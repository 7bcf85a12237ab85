internal import CXML2
import EnergyClockDomain
import FoundationEssentials

/// A streaming XML reader over libxml2's `xmlTextReader`: no network, no DTD, no entity expansion,
/// a budget of work and time (``ParseBudget``), and nothing written to standard error.
///
/// libxml2 is loaded on the first document (`CXML2`), so a daemon that never reads XML never maps
/// it, nor the ICU it brings.
package enum XMLStream {
    /// One step through a document; names are local (without their namespace prefix).
    package enum Event {
        case start(name: String, attributes: [String: String])
        case text(String)
        case end(name: String)
    }

    /// Why a document could not be read.
    package struct Failure: Error {
        package let reason: String
    }

    /// Walks `data` in document order; `visit` returns a reason to stop early, or nil to go on.
    ///
    /// Only UTF-8 is read. Throws when the document is not well-formed, costs more than `budget`
    /// (measured before libxml2 sees it, and by the clock while it reads), its task is cancelled,
    /// or `visit` stops it.
    package static func read(
        _ data: some Collection<UInt8>, budget: ParseBudget = .answer, _ visit: (Event) -> String?
    ) throws(Failure) {
        let bytes = Array(data)
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Failure(reason: "the answer is not UTF-8 text") }
        if let excess = bytes.withUnsafeBytes({ budget.excess(of: $0) }) {
            throw Failure(reason: "the document has \(excess), more than any answer needs")
        }
        if let missing = ec_xml_load() { throw Failure(reason: String(cString: missing)) }
        let meter = ParseBudget.Meter(budget)
        let errors = ErrorLog()
        var stopped: String?
        let outcome: Int32 = bytes.withUnsafeBytes { raw in
            ec_xml_silence()
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count < Int32.max,
                let reader = ec_xml_reader_for_memory(base, Int32(raw.count), "UTF-8", EC_XML_PARSE_NONET)
            else { return -1 }
            defer { ec_xml_free_reader(reader) }
            ec_xml_set_error_handler(reader, ErrorLog.handler, Unmanaged.passUnretained(errors).toOpaque())
            var rc = ec_xml_read(reader)
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
                rc = ec_xml_read(reader)
            }
            return rc
        }
        if let stopped { throw Failure(reason: stopped) }
        guard outcome == 0 else { throw Failure(reason: "not well-formed XML (\(errors.first ?? "the reader stopped"))") }
    }

    /// What the reader's current node means: an empty element is a start and an end.
    private static func events(at reader: OpaquePointer) -> [Event] {
        func string(_ pointer: UnsafePointer<UInt8>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        switch Int(ec_xml_node_type(reader)) {
        case EC_XML_ELEMENT:
            let name = string(ec_xml_local_name(reader))
            let empty = ec_xml_is_empty_element(reader) == 1
            var attributes: [String: String] = [:]
            if ec_xml_move_to_first_attribute(reader) == 1 {
                repeat {
                    attributes[string(ec_xml_local_name(reader))] = string(ec_xml_value(reader))
                } while ec_xml_move_to_next_attribute(reader) == 1
                ec_xml_move_to_element(reader)
            }
            return empty ? [.start(name: name, attributes: attributes), .end(name: name)] : [.start(name: name, attributes: attributes)]
        case EC_XML_END_ELEMENT:
            return [.end(name: string(ec_xml_local_name(reader)))]
        case EC_XML_TEXT, EC_XML_CDATA, EC_XML_SIGNIFICANT_WHITESPACE:
            return [.text(string(ec_xml_value(reader)))]
        default:
            return []
        }
    }

    /// The first problem libxml2 reports, with its line.
    private final class ErrorLog {
        var first: String?

        static let handler: ec_xml_error_handler = { context, message, _, locator in
            let log = Unmanaged<ErrorLog>.fromOpaque(context!).takeUnretainedValue()
            guard log.first == nil, let message else { return }
            let line = locator.map { ec_xml_locator_line($0) } ?? 0
            log.first = "line \(line): " + String(cString: message).trimmed
        }
    }
}
