import CardModels

/// Edits made offline that the server refused as conflicts when the outbox was sent
/// (docs/TUI.md, "The local cache"): each opens the form's conflict view, and the person's
/// choice resolves the outbox entry — saving sends their fields once over the server's version,
/// leaving keeps the server's and drops the entry.
extension AppState {
    /// Keeps `conflicts` for the conflict view (an entry already waiting or open is not added twice).
    mutating func noteOfflineConflicts(_ conflicts: [OfflineConflict]) {
        for conflict in conflicts
        where form?.offlineEntry != conflict.entry && !offlineConflicts.contains(where: { $0.entry == conflict.entry })
        {
            offlineConflicts.append(conflict)
        }
    }

    /// Opens the conflict view of the next waiting conflict when the list shows with nothing
    /// over it (never in the middle of another screen, a dialog or the filter's typing).
    mutating func openOfflineConflictIfIdle() -> [Effect] {
        guard !offlineConflicts.isEmpty, screen == .list, form == nil, modal == nil, overlay == nil, transfer == nil,
            reauth == nil, !list.isEditingFilter, focus == .screen
        else { return [] }
        let conflict = offlineConflicts.removeFirst()
        form = FormState(resolving: conflict)
        screen = .form
        showMessage(
            .warning,
            "Your offline edit of “\(conflict.server.fields.name)” met a newer version: "
                + "Enter sends yours, Esc keeps theirs",
            topic: .form)
        // Keys typed for the list must not land in the form.
        return [.discardTypeahead]
    }

    /// The form of an offline conflict is closing: `keptMine` when the person's fields were just
    /// saved, else the server's version stays. The outbox entry goes either way.
    mutating func resolveOfflineEdit(of closing: FormState?, keptMine: Bool) -> [Effect] {
        guard let entry = closing?.offlineEntry else { return [] }
        if !keptMine, let name = closing?.conflict?.fields.name ?? closing?.cardFields.name {
            showMessage(.info, "Kept the server's version of “\(name)”; the change made offline was dropped")
        }
        return [call(.resolveOfflineEdit(entry: entry, keptMine: keptMine), route: .outbox)]
    }
}
