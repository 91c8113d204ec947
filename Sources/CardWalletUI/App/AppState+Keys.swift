extension AppState {
    /// The key tables in force now, first match wins: the reducer dispatches keys through
    /// exactly this list, and help (``helpTables``) prints it.
    public var activeKeyTables: [KeyTable] {
        switch modal {
        case .confirm: return [KeyTables.confirm, KeyTables.interrupt]
        case .help: return [KeyTables.pager, KeyTables.interrupt]
        case nil: return tablesBeneathModal
        }
    }

    /// The tables help shows: those of whatever the help page covers.
    public var helpTables: [KeyTable] {
        if case .help = modal { return tablesBeneathModal }
        return activeKeyTables
    }

    private var tablesBeneathModal: [KeyTable] {
        if let overlay, overlay.overlay.coversScreen { return overlay.overlay.keyTables }
        if reauth != nil { return [KeyTables.reauth, KeyTables.textField, KeyTables.typingGlobal] }
        if let overlay { return overlay.overlay.keyTables }
        if let transfer {
            switch transfer.stage {
            case .exportPrompt: return [KeyTables.exportPrompt, KeyTables.textField, KeyTables.typingGlobal]
            case .importPrompt: return [KeyTables.importPrompt, KeyTables.textField, KeyTables.typingGlobal]
            case .preview: return [KeyTables.importPreview, KeyTables.global]
            case .report: return [KeyTables.importReport, KeyTables.global]
            case .exporting, .reading, .importing: return [KeyTables.transferWorking, KeyTables.interrupt]
            }
        }
        if focus == .log, log.isVisible { return [KeyTables.log, KeyTables.global] }
        switch screen {
        case .login:
            return [KeyTables.login, KeyTables.textField, KeyTables.typingGlobal]
        case .list:
            return list.isEditingFilter
                ? [KeyTables.filter, KeyTables.typingGlobal] : [KeyTables.list, KeyTables.global]
        case .detail:
            if detail?.isChoosingCopy == true { return [KeyTables.copy, KeyTables.interrupt] }
            if detail?.qr != nil { return [KeyTables.interrupt, KeyTables.qr] }
            return [KeyTables.detail, KeyTables.global]
        case .form:
            if let scan = form?.scan {
                return scan.isScanning
                    ? [KeyTables.scanning, KeyTables.interrupt]
                    : [KeyTables.scanPrompt, KeyTables.textField, KeyTables.typingGlobal]
            }
            var tables = [KeyTables.form]
            if let form, form.fields.indices.contains(form.focus), form.fields[form.focus].kind.isMultiline {
                tables.insert(KeyTables.multilineText, at: 0)
            }
            if form?.mode == .add { tables.append(KeyTables.newCard) }
            if form?.conflict != nil { tables.append(KeyTables.conflict) }
            return tables + [KeyTables.textField, KeyTables.typingGlobal]
        }
    }

    /// The command `key` means now, if any.
    public func command(for key: Key) -> Command? {
        activeKeyTables.command(for: key)
    }

    /// The lines of the help page: each table's title, then its keys and what they do.
    public var helpLines: [(keys: String, summary: String, isTitle: Bool)] {
        var lines: [(keys: String, summary: String, isTitle: Bool)] = []
        for table in helpTables {
            if !lines.isEmpty { lines.append(("", "", false)) }
            lines.append((table.title, "", true))
            for binding in table.bindings {
                lines.append((binding.keyNames, binding.summary, false))
            }
        }
        return lines
    }
}
