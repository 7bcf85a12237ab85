import EnergyClockDomain
import FoundationEssentials
import Glibc

/// The persistent state: settings, a price cache per source, each source's last successful fetch,
/// exchange rates, and notes that outer layers keep between runs.
///
/// Writes are durable when they return (WAL with `synchronous=FULL`, the log kept in place: see
/// ``checkpointIfLong()``). Opening checks the file:
/// a damaged store, or one written by a newer version, is moved aside and replaced by a fresh one
/// that keeps the old settings when they can still be read (see ``opening``).
public final class PriceStore {
    let db: SQLiteDatabase

    /// The database file's name inside the state directory.
    public static let fileName = "energyclock.sqlite"

    /// What opening found; the daemon logs it.
    public let opening: Opening

    /// What opening the store found and did.
    public struct Opening: Sendable, Equatable {
        /// There was no store, or an empty file: everything starts from the defaults.
        public var fresh: Bool
        /// Where a damaged or unknown store was moved, if one was.
        public var movedTo: String?
        /// Why it was moved.
        public var reason: String?
        /// Whether the settings of a moved store were carried over.
        public var settingsKept = false
    }

    /// Opens or creates the store in `directory`, creating the directory too.
    public convenience init(directory: URL, now: Date = Date()) throws(StoreError) {
        try self.init(directory: StateDirectory(path: directory.path), now: now)
    }

    /// Opens or creates the store in `directory`; `now` names a damaged file that is moved aside.
    public init(directory: StateDirectory, now: Date = Date()) throws(StoreError) {
        let path = directory.file(Self.fileName)
        var opening = Opening(fresh: Self.isEmptyOrMissing(path))
        var result = Self.openChecked(path)
        if case let .failure(.damaged(reason)) = result {
            let settings = Self.salvageSettings(path)
            let aside = "\(path).corrupt-\(ISO8601.compactUTC(now))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                guard rename(path + suffix, aside + suffix) == 0 else {
                    throw StoreError(action: "move the damaged store \(path) aside", message: StateDirectory.lastError())
                }
            }
            opening.movedTo = aside
            opening.reason = reason
            result = Self.openChecked(path)
            if case let .success(fresh) = result, let settings {
                try fresh.query(Self.saveSettingsSQL, [.text(settings)], action: "carry the settings over")
                opening.settingsKept = true
            }
        }
        switch result {
        case let .success(opened): db = opened
        case let .failure(.unusable(error)): throw error
        case let .failure(.damaged(reason)): throw StoreError(action: "create a fresh store at \(path)", message: reason)
        }
        self.opening = opening
    }

    /// What SQLite's full integrity check finds wrong; empty for a sound store.
    public func integrityProblems() throws(StoreError) -> [String] {
        var findings: [String] = []
        try db.query("PRAGMA integrity_check", action: "check the store's integrity") { findings.append($0.text(0)) }
        return findings == ["ok"] ? [] : findings
    }

    /// Closes the database; the store must not be used afterwards.
    public func close() { db.close() }

    /// Copies the write-ahead log into the database file once it holds ``checkpointFrames`` or
    /// more: the manager calls it when it has nothing else to do, so that commits keep
    /// overwriting the log's first blocks in place and never wait for a checkpoint themselves.
    public func checkpointIfLong() throws(StoreError) {
        try db.checkpoint(from: Self.checkpointFrames)
    }

    /// The saved settings as JSON text, if any were saved.
    public func settingsJSON() throws(StoreError) -> String? {
        var json: String?
        try db.query("SELECT json FROM settings WHERE id = 1", action: "read settings") { json = $0.text(0) }
        return json
    }

    /// Saves `settings`, durably.
    public func save(_ settings: Settings) throws(StoreError) {
        try db.query(Self.saveSettingsSQL, [.text(settings.json)], action: "save settings")
    }

    /// The saved profiles after the first, in order, as names and settings JSON.
    public func profileRows() throws(StoreError) -> [(name: String, json: String)] {
        var rows: [(name: String, json: String)] = []
        try db.query("SELECT name, json FROM profiles ORDER BY position", action: "read profiles") { rows.append(($0.text(0), $0.text(1))) }
        return rows
    }

    /// Saves `profiles` in one transaction, durably: the first as the settings, the others by
    /// position; a profile no longer in `profiles` is gone from the store.
    ///
    /// With `previous`, what the store holds now, only what changed is written: one row for a
    /// change to one profile of forty. A profile added or removed rewrites the list, so that the
    /// positions stay those of `profiles`.
    public func save(_ profiles: Profiles, over previous: Profiles? = nil) throws(StoreError) {
        try db.transaction(action: "save settings") { () throws(StoreError) in
            // Compared where they lie: `first` would copy both settings out.
            if previous.map({ $0.all[0].settings != profiles.all[0].settings }) ?? true {
                try db.query(Self.saveSettingsSQL, [.text(profiles.first.json)], action: "save settings")
            }
            if let previous, previous.names == profiles.names {
                for (was, profile) in zip(previous.all, profiles.all).dropFirst() where was.settings != profile.settings {
                    try db.query(
                        "UPDATE profiles SET json = ? WHERE name = ?", [.text(profile.settings.json), .text(profile.name)],
                        action: "save the profile \(profile.name)")
                }
                return
            }
            try db.query("DELETE FROM profiles", action: "save profiles")
            for (position, profile) in profiles.all.enumerated().dropFirst() {
                try db.query(
                    "INSERT INTO profiles (name, position, json) VALUES (?, ?, ?)",
                    [.text(profile.name), .integer(Int64(position)), .text(profile.settings.json)],
                    action: "save the profile \(profile.name)")
            }
        }
    }

    static let saveSettingsSQL = "INSERT INTO settings (id, json) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json"

    /// The note called `name`, as saved by ``saveNote(_:_:)``; empty when there is none.
    ///
    /// A note is a set of strings an outer layer keeps between runs (the publisher's record of the
    /// topics it published); the store gives them no meaning.
    public func note(_ name: String) throws(StoreError) -> Set<String> {
        var items: Set<String> = []
        try db.query("SELECT item FROM notes WHERE name = ?", [.text(name)], action: "read the note \(name)") { items.insert($0.text(0)) }
        return items
    }

    /// Replaces the note called `name` with `items`, durably.
    public func saveNote(_ name: String, _ items: Set<String>) throws(StoreError) {
        try db.transaction(action: "save the note \(name)") { () throws(StoreError) in
            try db.query("DELETE FROM notes WHERE name = ?", [.text(name)], action: "save the note \(name)")
            for item in items.sorted() {
                try db.query("INSERT INTO notes (name, item) VALUES (?, ?)", [.text(name), .text(item)], action: "save the note \(name)")
            }
        }
    }

    /// Cached slots of `source` that overlap `interval`, sorted, as official values of the source
    /// the key names (its part before the first `/`); under a key `forecast/<provider>/<zone>`, as
    /// that provider's forecast issued at the key's last successful fetch; under a key
    /// `carbon/<source>/<area>`, as that source's values, a forecast issued at the last successful
    /// fetch where a slot ends after it (the store keeps no kind; the next fetch, due within half
    /// an hour, marks each value as its source does).
    ///
    /// A row whose quantity (the `currency` column: a currency code, or a unit for what is no
    /// price), basis or level this build does not know is left out rather than read as something
    /// else.
    public func slots(source: String, overlapping interval: DateInterval) throws(StoreError) -> [SeriesSlot] {
        var slots: [SeriesSlot] = []
        let parts = source.split(separator: "/", omittingEmptySubsequences: false)
        let keyed = parts.count == 3 && (parts[0] == Self.forecastPrefix || parts[0] == Self.carbonPrefix)
        let issued = keyed ? try lastSuccess(source: source) ?? Date(timeIntervalSince1970: 0) : Date(timeIntervalSince1970: 0)
        let provenance =
            keyed ? Provenance.forecast(String(parts[1]), issued: issued) : Provenance.official(String(parts[0]))
        // A carbon source's value for what had passed at its fetch is its own estimate of it.
        let officialUntil = parts[0] == Self.carbonPrefix ? issued : Date(timeIntervalSince1970: 0)
        let official = Provenance.official(String(parts[keyed ? 1 : 0]))
        try db.query(
            #"SELECT start, "end", market, currency, basis, level FROM prices WHERE source = ? AND "end" > ? AND start < ? ORDER BY start"#,
            [.text(source), .integer(Self.seconds(interval.start)), .integer(Self.seconds(interval.end))],
            action: "read prices of \(URLRedaction.redacted(source))"
        ) { row in
            guard let quantity = Quantity(code: row.text(3)), let basis = row.byte(4).flatMap(PriceBasis.init(rawValue:))
            else { return }
            var level: PriceLevel?
            if !row.isNull(5) {
                guard let known = row.byte(5).flatMap(PriceLevel.init(rawValue:)) else { return }
                level = known
            }
            let end = Date(timeIntervalSince1970: Double(row.integer(1)))
            slots.append(
                SeriesSlot(
                    start: Date(timeIntervalSince1970: Double(row.integer(0))), end: end,
                    value: row.real(2), quantity: quantity, basis: basis, level: level,
                    provenance: end <= officialUntil ? official : provenance
                ))
        }
        return slots
    }

    /// Replaces the cached slots of `source` in the span of `slots`; records a successful fetch at `fetchedAt` if given.
    public func save(_ slots: [SeriesSlot], source: String, fetchedAt: Date?) throws(StoreError) {
        try save(slots[...], source: source, fetchedAt: fetchedAt, replacing: nil)
    }

    /// Replaces the cached slots of `source` in `span` (by default the span of `slots`; a span given
    /// is emptied even when `slots` is) with `slots`; records a successful fetch at `fetchedAt` if
    /// given. One transaction.
    public func save(_ slots: ArraySlice<SeriesSlot>, source: String, fetchedAt: Date?, replacing span: DateInterval?) throws(StoreError) {
        // Named once: redacting the source for each of 86,400 slots took most of the save's time.
        let action = "save prices of \(URLRedaction.redacted(source))"
        try db.transaction(action: action) { () throws(StoreError) in
            if let span = span ?? slots.first.map({ DateInterval(start: $0.start, end: max($0.start, slots.last!.end)) }) {
                try db.query(
                    #"DELETE FROM prices WHERE source = ? AND "end" > ? AND start < ?"#,
                    [.text(source), .integer(Self.seconds(span.start)), .integer(Self.seconds(span.end))],
                    action: "replace prices of \(URLRedaction.redacted(source))")
            }
            for slot in slots {
                try db.query(
                    #"INSERT INTO prices (source, start, "end", market, currency, basis, level) VALUES (?, ?, ?, ?, ?, ?, ?)"#,
                    [
                        .text(source), .integer(Self.seconds(slot.start)), .integer(Self.seconds(slot.end)), .real(slot.value),
                        .text(slot.quantity.code), .integer(Int64(slot.basis.rawValue)),
                        slot.level.map { .integer(Int64($0.rawValue)) } ?? .null,
                    ],
                    action: action)
            }
            guard let fetchedAt else { return }
            try db.query(
                "INSERT INTO fetches (source, last_success) VALUES (?, ?) ON CONFLICT(source) DO UPDATE SET last_success = excluded.last_success",
                [.text(source), .integer(Self.seconds(fetchedAt))], action: "record the fetch of \(URLRedaction.redacted(source))")
        }
    }

    /// Replaces every cached slot of `source` with `slots` and records a successful fetch at
    /// `fetchedAt`: a provider's new forecast replaces the one before whole.
    public func replaceAll(_ slots: [SeriesSlot], source: String, fetchedAt: Date) throws(StoreError) {
        let everything = DateInterval(
            start: Date(timeIntervalSince1970: Bounded.epochSeconds.lowerBound),
            end: Date(timeIntervalSince1970: Bounded.epochSeconds.upperBound))
        try save(slots[...], source: source, fetchedAt: fetchedAt, replacing: everything)
    }

    /// When `source` last answered a fetch successfully.
    public func lastSuccess(source: String) throws(StoreError) -> Date? {
        var date: Date?
        try db.query(
            "SELECT last_success FROM fetches WHERE source = ?", [.text(source)],
            action: "read the last fetch of \(URLRedaction.redacted(source))"
        ) {
            date = Date(timeIntervalSince1970: Double($0.integer(0)))
        }
        return date
    }

    /// Deletes every cached slot that ended before `cutoff`, for all sources.
    public func trim(before cutoff: Date) throws(StoreError) {
        try db.query(#"DELETE FROM prices WHERE "end" <= ?"#, [.integer(Self.seconds(cutoff))], action: "trim old prices")
    }

    /// The first part of the key of a provider's forecast: `forecast/<provider>/<zone>`.
    public static let forecastPrefix = "forecast"
    /// The first part of a carbon source's keys, `carbon/<source>/<area>`.
    public static let carbonPrefix = "carbon"

    private static func seconds(_ date: Date) -> Int64 { Bounded.wholeSeconds(date, rounding: .toNearestOrAwayFromZero) }
}
