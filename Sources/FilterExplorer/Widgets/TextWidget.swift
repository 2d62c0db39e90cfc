import FilterEngine

/// A string (messages, fonts, barcode descriptors): Enter types it.
struct TextWidget: InputWidget {
    var kind: ControlKind { .text }
}
