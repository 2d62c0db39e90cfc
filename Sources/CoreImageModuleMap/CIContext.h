// Intentionally empty: the declarations of `import CoreImage.CIContext` are Swift declarations of the CoreImage module.
