import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore

extension PriceManager {
    /// The saved profiles, read leniently, with everything notable about them logged: a profile
    /// whose name this version refuses is left out, never a reason to refuse to start.
    static func restoreProfiles(
        from store: PriceStore, catalog: SourceCatalog, reserved: Set<String>, logger: Logger
    ) throws(ManagerError) -> Profiles {
        var profiles = Profiles(first: try restoreSettings(from: store, catalog: catalog, logger: logger))
        let rows: [(name: String, json: String)]
        do { rows = try store.profileRows() } catch { throw .store(error) }
        for (name, json) in rows {
            if let problem = ProfileName.problem(with: name, reserved: reserved) {
                logger.error("left out the saved profile \"\(Quote.clip(name))\": \(problem)")
                continue
            }
            guard profiles.all.count < Profiles.limit, !profiles.contains(name) else {
                logger.error("left out the saved profile \"\(Quote.clip(name))\": one too many, or twice")
                continue
            }
            let restored = Settings.restore(json: json, sources: catalog.ids)
            for field in restored.unknownFields {
                logger.warning("profile \(name): ignored the saved setting \"\(Quote.clip(field))\", which this version does not know")
            }
            for repair in restored.repairs { logger.error("profile \(name): saved settings: \(repair)") }
            profiles.set(name, restored.settings)
        }
        return profiles
    }

    /// The saved settings of the first profile, read leniently, with everything notable about them logged.
    static func restoreSettings(from store: PriceStore, catalog: SourceCatalog, logger: Logger) throws(ManagerError) -> Settings {
        let opening = store.opening
        if let moved = opening.movedTo {
            logger.error(
                "the store was unusable (\(opening.reason ?? "damaged")); moved it to \(moved) and started a fresh one, "
                    + (opening.settingsKept ? "keeping the saved settings" : "without the saved settings, which could not be read"))
        }
        let json: String?
        do { json = try store.settingsJSON() } catch { throw .store(error) }
        guard let json else {
            let message = "no saved settings; starting with the defaults \(Settings.defaults.json)"
            if opening.fresh && opening.movedTo == nil { logger.info(message) } else { logger.warning(message) }
            return .defaults
        }
        let restored = Settings.restore(json: json, sources: catalog.ids)
        for name in restored.unknownFields {
            logger.warning(
                "ignored the saved setting \"\(Quote.clip(name))\", which this version does not know (saved by a newer energyclock?)")
        }
        for repair in restored.repairs { logger.error("saved settings: \(repair)") }
        return restored.settings
    }
}
