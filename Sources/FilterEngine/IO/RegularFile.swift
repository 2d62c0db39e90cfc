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

    /// Writes `data` to `path` atomically: a temporary file beside it, flushed, then renamed over it. An
    /// existing destination must be a regular file (a symbolic link is followed: its target is replaced).
    public static func writeAtomically(_ data: Data, to path: String) throws {
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
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + name + ".partial-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ImageFileError(path: path, message: "cannot create a file in its directory: \(String(cString: strerror(errno)))")
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            close(fd)
            if !renamed { unlink(temporary) }
        }
        fchmod(fd, mode)
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
        guard rename(temporary, destination) == 0 else {
            throw ImageFileError(path: path, message: "cannot be replaced: \(String(cString: strerror(errno)))")
        }
        renamed = true
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
