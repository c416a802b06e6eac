//! Link-layer queue disciplines and loss models (stub; being written).
