#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    public import Darwin
#endif

extension CursesBackend {
    /// When cells are coloured.
    public enum ColorMode: Sendable, Hashable {
        /// Colour when the terminal has it and `NO_COLOR` is unset or empty.
        case automatic
        /// Attributes only (bold, reverse, underline, dim).
        case never
    }

    /// How a ``CursesBackend`` starts. The defaults suit the executable.
    public struct Configuration: Sendable, Hashable {
        /// The terminal to read keys from.
        public var inputDescriptor: Int32
        /// The terminal to paint on.
        public var outputDescriptor: Int32
        /// The terminfo name; `nil` reads `TERM`.
        public var terminalType: String?
        /// Where writes to fds 1 and 2 go while the interface owns the screen (each only when
        /// it is a terminal: a `2> file` the user asked for is kept). `nil` leaves them alone.
        public var strayOutputPath: String?
        /// When cells are coloured.
        public var colors: ColorMode
        /// Whether to install the handlers that restore the terminal on SIGINT, SIGTERM, SIGHUP
        /// and crashes. They are process-wide: turn them off only where the host handles them.
        public var handlesSignals: Bool
        /// Whether Ctrl-Z suspends the program (when the shell has job control) instead of
        /// reaching the UI as `.ctrl("z")`.
        public var suspendsOnCtrlZ: Bool
        /// How long after ESC another byte still belongs to an escape sequence.
        public var escapeDelayMilliseconds: Int
        /// Whether mouse presses and the wheel are reported (the terminal's own selection then
        /// needs Shift held, as in every program that reads the mouse).
        public var usesMouse: Bool

        /// A configuration for the process's own terminal.
        /// - Parameters:
        ///   - inputDescriptor: The terminal to read keys from; standard input by default.
        ///   - outputDescriptor: The terminal to paint on; standard output by default.
        ///   - terminalType: The terminfo name; `nil` reads `TERM`.
        ///   - strayOutputPath: Where writes to fds 1 and 2 go meanwhile; `/dev/null` by default.
        ///   - colors: When cells are coloured.
        ///   - handlesSignals: Whether to install the restoring signal handlers.
        ///   - suspendsOnCtrlZ: Whether Ctrl-Z suspends the program.
        ///   - escapeDelayMilliseconds: The escape-sequence delay; 25 ms by default.
        ///   - usesMouse: Whether mouse presses and the wheel are reported; yes by default.
        public init(
            inputDescriptor: Int32 = STDIN_FILENO,
            outputDescriptor: Int32 = STDOUT_FILENO,
            terminalType: String? = nil,
            strayOutputPath: String? = "/dev/null",
            colors: ColorMode = .automatic,
            handlesSignals: Bool = true,
            suspendsOnCtrlZ: Bool = true,
            escapeDelayMilliseconds: Int = 25,
            usesMouse: Bool = true
        ) {
            self.inputDescriptor = inputDescriptor
            self.outputDescriptor = outputDescriptor
            self.terminalType = terminalType
            self.strayOutputPath = strayOutputPath
            self.colors = colors
            self.handlesSignals = handlesSignals
            self.suspendsOnCtrlZ = suspendsOnCtrlZ
            self.escapeDelayMilliseconds = escapeDelayMilliseconds
            self.usesMouse = usesMouse
        }
    }
}
