public import CardModels

/// Cards as a CSV file Google Contacts imports: the header of Google's own "Google CSV" export
/// (the columns it reads back by name), one row per card, RFC 4180 quoting, CR LF line ends,
/// UTF-8.
public enum GoogleCSV {
    /// The header, in the order of Google's export.
    public static let header = [
        "Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Given Name Yomi", "Additional Name Yomi",
        "Family Name Yomi", "Name Prefix", "Name Suffix", "Initials", "Nickname", "Short Name", "Maiden Name",
        "Birthday",
        "Gender", "Location", "Billing Information", "Directory Server", "Mileage", "Occupation", "Hobby",
        "Sensitivity",
        "Priority", "Subject", "Notes", "Language", "Photo", "Group Membership", "E-mail 1 - Type", "E-mail 1 - Value",
        "Phone 1 - Type", "Phone 1 - Value", "Address 1 - Type", "Address 1 - Formatted", "Organization 1 - Type",
        "Organization 1 - Name", "Organization 1 - Yomi Name", "Organization 1 - Title", "Organization 1 - Department",
        "Organization 1 - Symbol", "Organization 1 - Location", "Organization 1 - Job Description", "Website 1 - Type",
        "Website 1 - Value",
    ]

    /// The header line, CR LF included.
    public static var headerLine: String { line(header) }

    /// One card's row, CR LF included.
    public static func row(_ card: Card) -> String {
        let fields = card.fields
        let parts = nameParts(fields)
        var row = [String: String]()
        row["Name"] = fields.name
        row["Given Name"] = parts.given
        row["Additional Name"] = parts.additional
        row["Family Name"] = parts.family
        row["Name Prefix"] = parts.prefix
        row["Name Suffix"] = parts.suffix
        row["Birthday"] = fields.birthday
        row["Notes"] = fields.bio
        // Google's own export starts the groups with "* myContacts"; tags become labels.
        row["Group Membership"] = (["* myContacts"] + fields.tags).joined(separator: " ::: ")
        if let email = fields.email {
            row["E-mail 1 - Type"] = "* Work"
            row["E-mail 1 - Value"] = email
        }
        if let phone = fields.phone {
            row["Phone 1 - Type"] = "Work"
            row["Phone 1 - Value"] = phone
        }
        if let address = fields.address {
            row["Address 1 - Type"] = "Work"
            row["Address 1 - Formatted"] = address
        }
        row["Organization 1 - Name"] = fields.company
        row["Organization 1 - Title"] = fields.title
        row["Organization 1 - Department"] = fields.department
        if let website = fields.website {
            row["Website 1 - Type"] = "Work"
            row["Website 1 - Value"] = website
        }
        return line(header.map { row[$0] ?? "" })
    }

    /// The name's parts: from the N line the card was imported with, else split as the vCard
    /// writer does (the last word is the family name).
    static func nameParts(_ fields: CardFields) -> (
        family: String, given: String, additional: String, prefix: String, suffix: String
    ) {
        var components: [String]?
        for line in fields.vcardProperties where line.uppercased().hasPrefix("N") {
            if let property = ContentLine.parse(line), property.key == "N", property.group == nil {
                // Only while it goes with the card's name (see VCardWriter).
                let name = property.values(of: WalletProperty.nameParameter).first
                if name == nil || name == fields.name { components = property.components }
                break
            }
        }
        let parts = components ?? ContentLine.parse(NameParts.derivedLine(for: fields.name))?.components ?? []
        func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
        return (part(0), part(1), part(2), part(3), part(4))
    }

    /// Cells joined with commas, quoted when they hold a comma, a quote or a line break.
    static func line(_ cells: [String]) -> String {
        cells.map { cell in
            guard cell.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return cell }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
