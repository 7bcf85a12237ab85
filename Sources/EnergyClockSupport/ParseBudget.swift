import Platform

/// How much work one parse of an answer may cost: elements, attributes per element, depth and time.
///
/// libxml2 checks an element's attributes for duplicates pair by pair, so one element with 200,000
/// attributes costs minutes of CPU before the reader returns at all; limits on the document as a
/// whole (its size, its depth) do not stop that. An answer is therefore measured by a linear scan
/// before libxml2 sees it, and the parse itself stops at a deadline or when its task is cancelled.
package struct ParseBudget: Sendable, Equatable {
    /// Most elements in one document.
    package var elements: Int
    /// Most attributes on one element.
    package var attributesPerElement: Int
    /// Deepest nesting of elements.
    package var depth: Int
    /// Longest a parse may take, in seconds.
    package var seconds: Double

    /// A budget from its parts; every part has the default of ``answer`` unless given.
    package init(elements: Int = 200_000, attributesPerElement: Int = 64, depth: Int = 64, seconds: Double = 5) {
        self.elements = elements
        self.attributesPerElement = attributesPerElement
        self.depth = depth
        self.seconds = seconds
    }

    /// The budget for one price or rate answer.
    package static let answer = ParseBudget()

    /// Why `document` would cost more than the budget, or nil when it fits.
    ///
    /// The scan over-counts rather than under-counts: a `<` followed by a name inside a comment
    /// counts as an element, so a document that passes costs libxml2 at most this much.
    package func excess(of document: UnsafeRawBufferPointer) -> String? {
        var elements = 0
        var depth = 0
        var index = 0
        let count = document.count
        @inline(__always) func byte(_ i: Int) -> UInt8 { i < count ? document[i] : 0 }
        while index < count {
            guard document[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let next = byte(index + 1)
            if next == UInt8(ascii: "/") {
                depth = max(0, depth - 1)
                index += 2
                continue
            }
            guard next != UInt8(ascii: "!"), next != UInt8(ascii: "?") else {
                index += 2
                continue
            }
            // A start tag: count `=` outside quoted values up to its `>`.
            elements += 1
            guard elements <= self.elements else { return "more than \(self.elements) elements" }
            var attributes = 0
            var quote: UInt8 = 0
            var selfClosing = false
            index += 1
            while index < count {
                let c = document[index]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if c == UInt8(ascii: "=") {
                    attributes += 1
                    guard attributes <= attributesPerElement else {
                        return "an element with more than \(attributesPerElement) attributes"
                    }
                } else if c == UInt8(ascii: ">") {
                    selfClosing = byte(index - 1) == UInt8(ascii: "/")
                    break
                }
                index += 1
            }
            if !selfClosing {
                depth += 1
                guard depth <= self.depth else { return "elements nested deeper than \(self.depth)" }
            }
            index += 1
        }
        return nil
    }

    /// A clock for one parse: whether it has run out of time or been asked to stop.
    package struct Meter {
        let deadline: Double
        let seconds: Double

        /// A meter that starts now.
        package init(_ budget: ParseBudget) {
            seconds = budget.seconds
            deadline = Monotonic.seconds() + budget.seconds
        }

        /// Why the parse must stop now, or nil to go on: its time is up, or its task was cancelled
        /// (a shutdown).
        package func stop() -> String? {
            if Task.isCancelled { return "the parse was stopped" }
            if Monotonic.seconds() > deadline { return "the parse took longer than \(seconds) s" }
            return nil
        }
    }
}
