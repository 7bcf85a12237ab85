extension StringProtocol {
    /// The text without leading and trailing whitespace, line breaks included.
    package var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
