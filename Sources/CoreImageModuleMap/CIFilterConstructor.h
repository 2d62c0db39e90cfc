// Intentionally empty: the declarations of `import CoreImage.CIFilterConstructor` are Swift declarations of the CoreImage module.
