// Intentionally empty: the declarations of `import CoreImage.CIVector` are Swift declarations of the CoreImage module.
