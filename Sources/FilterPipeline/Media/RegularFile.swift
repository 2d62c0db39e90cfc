import CImageIO
import FilterEngine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing whole files safely: only regular files are read (a directory, FIFO, device or socket is
/// refused at once, before anything can block), and writes go to a temporary file in the same directory that is
/// renamed over the destination, so a killed program never leaves a truncated file in place of the old one.
public enum RegularFile {
    /// The largest file read whole (2 GiB): far beyond any image or table this program reads.
    public static let defaultMaximumBytes = 1 << 31

    /// The bytes of the regular file at `path`. Errors name the path and say what is wrong.
    public static func read(_ path: String, maximumBytes: Int = defaultMaximumBytes) throws -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused right after by its type.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw ImageFileError(path: path, message: openFailure(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImageFileError(path: path, message: String(cString: strerror(errno))) }
        if let kind = nonRegularKind(info.st_mode) {
            throw ImageFileError(path: path, message: "is \(kind), not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumBytes else {
            throw ImageFileError(path: path, message: "is \(size) bytes, more than the \(maximumBytes) bytes read whole")
        }
        var data = Data(count: size)
        var done = 0
        try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw ImageFileError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))") }
                if n == 0 { break }  // shrank while reading
                done += n
            }
        }
        return done == size ? data : data.prefix(done)
    }

    /// A description of a file type that is not a regular file ("a directory"), or nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    static func openFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case ENOTDIR: "a part of the path is not a directory"
        default: "cannot be opened: \(String(cString: strerror(code)))"
        }
    }

    /// What `writeAtomically(_:to:replacing: false)` throws when the destination exists (perhaps made a moment
    /// ago by another process writing the same name).
    public struct Exists: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path): exists; not replaced" }
    }

    /// Writes `data` to `path` atomically: a temporary file beside it, flushed, then renamed over it. An
    /// existing destination must be a regular file (a symbolic link is followed: its target is replaced).
    /// With `replacing` false an existing destination is never replaced, even one created while this writes
    /// (the temporary file is linked to the name, which fails if it exists): `Exists` is thrown instead.
    public static func writeAtomically(_ data: Data, to path: String, replacing: Bool = true) throws {
        let (temporary, destination) = try temporaryFile(for: path)
        let fd = temporary.descriptor
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { throw ImageFileError(path: path, message: "cannot be written: \(String(cString: strerror(errno)))") }
                done += n
            }
        }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw ImageFileError(path: path, message: "cannot be written: \(String(cString: strerror(errno)))")
        }
        try temporary.commit(to: destination, replacing: replacing)
    }

    /// The temporary file that will become `path` (written, flushed, then committed to `destination`): beside the
    /// target of a symbolic link, with the old file's permissions. An existing `path` must be a regular file.
    public static func temporaryFile(for path: String) throws -> (TemporaryFile, destination: String) {
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            destination = String(cString: resolved)
            free(resolved)
        }
        var mode: mode_t = 0o666 & ~currentUmask()
        if stat(destination, &info) == 0 {
            if let kind = nonRegularKind(info.st_mode) {
                throw ImageFileError(path: path, message: "is \(kind): write to a file name instead")
            }
            mode = info.st_mode & 0o7777  // keep the old file's permissions
        }
        let temporary = try TemporaryFile(beside: destination, reportedAs: path)
        fchmod(temporary.descriptor, mode)
        return (temporary, destination)
    }

    /// Removes the temporary files of unfinished writes when the program is killed by SIGINT, SIGTERM or SIGHUP
    /// (then dies of the signal as before). The command line calls it once at start.
    public static func removeTemporaryFilesOnSignals() {
        cimageio_temporary_remove_on_signals()
    }

    /// A file being written beside its destination: created exclusively under an unpredictable name (so a
    /// planted file or symbolic link is never followed), removed if it is dropped unfinished or the program is
    /// killed, and given its name by `commit`.
    public final class TemporaryFile {
        public let descriptor: Int32
        public let path: String
        private let reportedPath: String
        private let slot: Int32
        private var finished = false
        private var renamed = false

        /// `reportedAs`: the name errors mention (the destination as the user gave it).
        public init(beside destination: String, reportedAs reportedPath: String? = nil) throws {
            self.reportedPath = reportedPath ?? destination
            let directory = (destination as NSString).deletingLastPathComponent
            let name = (destination as NSString).lastPathComponent
            var template = Array(((directory.isEmpty ? "." : directory) + "/." + name + ".partial-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw ImageFileError(path: self.reportedPath,
                                     message: "cannot create a file in its directory: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // not inherited by a child process
            descriptor = fd
            path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            slot = cimageio_temporary_register(path)
        }

        /// Closes the file and gives it the destination's name: renamed over it, or with `replacing` false linked
        /// to it only if no file has that name (`Exists` otherwise). The temporary name is gone either way.
        public func commit(to destination: String, replacing: Bool = true) throws {
            defer { discard() }
            if replacing {
                guard rename(path, destination) == 0 else {
                    throw ImageFileError(path: reportedPath, message: "cannot be replaced: \(String(cString: strerror(errno)))")
                }
                renamed = true
            } else {
                guard link(path, destination) == 0 else {
                    if errno == EEXIST { throw Exists(path: reportedPath) }
                    throw ImageFileError(path: reportedPath, message: "cannot be written: \(String(cString: strerror(errno)))")
                }
            }
        }

        /// Closes and removes the file (nothing once committed).
        public func discard() {
            guard !finished else { return }
            finished = true
            close(descriptor)
            if !renamed { unlink(path) }
            cimageio_temporary_forget(slot)
        }

        deinit { discard() }
    }

    /// The process's umask, read from /proc (setting it to read it would race with other threads creating files).
    private static func currentUmask() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) {
            return value
        }
        return 0o022
    }
}
