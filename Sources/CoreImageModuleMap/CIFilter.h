// Intentionally empty: the declarations of `import CoreImage.CIFilter` are Swift declarations of the CoreImage module.
