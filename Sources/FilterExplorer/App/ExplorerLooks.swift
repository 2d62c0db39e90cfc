import FilterEngine
import FilterPipeline
import Foundation

/// Looks (`S` saves, the tree's "Looks" category opens): the filter or chain with its values as a recipe, the
/// format exports write, kept in `Looks.ownDirectory()`.
extension Explorer {
    func beginSavingLook() {
        guard let session else { return }
        let suggested = chain.count > 1 ? chain.steps.map { $0.session.name.replacingOccurrences(of: "CI", with: "") }.joined(separator: "-")
            : session.name.replacingOccurrences(of: "CI", with: "")
        mode = .text(TextEntry(purpose: .saveLook, prompt: "save the look as: ", field: TextField(suggested.lowercased())))
    }

    /// A typed name: refused when nothing is left of it, asked about when a look of that name exists.
    func submitLookName(_ typed: String) {
        let name: String
        do { name = try Looks.sanitizedName(typed) } catch {
            message = Message(text: "\(error)", isError: true)
            return
        }
        let path = Looks.ownDirectory().appendingPathComponent(name + ".json").path
        if FileManager.default.fileExists(atPath: path) {
            mode = .text(TextEntry(purpose: .replaceLook(name: name), prompt: "\(name) exists: replace it? (y/n) ", field: TextField()))
            return
        }
        mode = .normal
        saveLook(named: name)
    }

    /// Writes the look: the recipe an export writes, without its input image and crop (a look applies to any
    /// image), and the files it names (masks, cubes) beside it.
    func saveLook(named name: String) {
        let directory = Looks.ownDirectory()
        // The side files are named after the (never written) image, as an export's are.
        let output = directory.appendingPathComponent(name + ".png").path
        let path = directory.appendingPathComponent(name + ".json").path
        guard var recipe = chainRecipe(output: output, crop: nil, allValues: true) else { return }
        recipe.input = nil
        recipe.crop = nil
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in chainExportFiles(output: output) { try file.write(context: context) }
            try RegularFile.writeAtomically(Data(recipe.json.utf8), to: path)
        } catch {
            message = Message(text: "the look was not saved: \(error)", isError: true)
            return
        }
        tree.looks = Looks.list()
        message = Message(text: "saved the look \(name) (\(path)); Looks, at the end of the list, opens it", isError: false)
    }

    /// Opens a look as `explore --recipe` opens a recipe: every step editable, on the image shown now.
    func openLook(_ look: LookFile) {
        do {
            var recipe = try Recipe.load(look.path)
            recipe.input = nil
            guard !recipe.steps.isEmpty else { throw FilterExplorerError("\(look.path): the look has no steps") }
            closeEditor(keeping: true)
            endBrowsePreview()
            openRecipeChain(recipe)
            tree.reveal(lookNamed: look.name, own: look.isOwn)
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }
}
