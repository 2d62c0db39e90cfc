/// The release this source is: `cifiltertest --version` prints it, and the versioned-dependency check tags the
/// package with it (scripts read it from this line).
public let cifiltertestVersion = "1.1.0"
