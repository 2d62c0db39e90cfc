import FilterEngine

/// A vector typed as numbers (`[1 0 0 0]`, `1, 0, 0, 0`); each number may be an expression without spaces
/// (`pi/4`, `2*default`, where `default` is that component of the default). A vector of the wrong length is
/// refused, naming the length expected.
struct VectorWidget: InputWidget {
    /// The length the input takes (its default's), nil when any length goes (a mesh's segments).
    let expectedCount: Int?
    var kind: ControlKind { .vector }

    static func expectedCount(of input: InputDescriptor) -> Int? {
        if case .vector(let v)? = input.defaultValue, input.valueClass == .vector { return v.count }
        return nil
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        guard let session = explorer.session else { return }
        let defaults: [Double] = if case .vector(let v)? = control.input.defaultValue { v } else { [] }
        let values = try NumberExpression.evaluateList(text, defaults: defaults)
        let expected = expectedCount ?? Self.expectedCount(of: control.input)
        if let expected, values.count != expected {
            throw FilterExplorerError("\(control.input.key) takes \(expected) numbers, not \(values.count)")
        }
        try session.set(.vector(values.map(SliderSpec.tidy)), forKey: control.input.key)
    }
}
