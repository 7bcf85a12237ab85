import FoundationEssentials

extension ForecastAccuracy {
    /// The tallies as lines of text, one per provider, day and horizon, for the store:
    /// `<provider> <day> <horizon> <slots> <absolute error> <error> <bands agreed>`.
    public var lines: Set<String> {
        Set(
            tallies.map { key, tally in
                [
                    key.provider, key.day.description, String(key.horizon.rawValue), String(tally.slots),
                    DecimalFormat.string(tally.absoluteError, decimals: 6), DecimalFormat.string(tally.error, decimals: 6),
                    String(tally.bandsAgreed),
                ].joined(separator: " ")
            })
    }

    /// The tallies `lines` hold; a line that is not one of ``lines``' (a provider's name that is no
    /// name, a number out of range) is left out.
    public init(restoring lines: Set<String>) {
        self.init()
        for line in lines {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 7, SettingsField.providerNameProblem(String(parts[0])) == nil,
                let day = LocalDay(parsing: String(parts[1])),
                let horizon = Bounded.decimal(parts[2]).flatMap({ Bounded.integer($0, in: 0...2) }).flatMap(Horizon.init(rawValue:)),
                let slots = Bounded.decimal(parts[3]).flatMap({ Bounded.integer($0, in: 1...10_000_000) }),
                let absolute = Bounded.decimal(parts[4]).flatMap({ Bounded.number($0, in: 0...1e9) }),
                let error = Bounded.decimal(parts[5]).flatMap({ Bounded.number($0, in: -1e9...1e9) }),
                let agreed = Bounded.decimal(parts[6]).flatMap({ Bounded.integer($0, in: 0...slots) })
            else { continue }
            var tally = Tally()
            tally.slots = slots
            tally.absoluteError = absolute
            tally.error = error
            tally.bandsAgreed = agreed
            add(tally, provider: String(parts[0]), day: day, horizon: horizon)
        }
    }
}
