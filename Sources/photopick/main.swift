import PhotoPickCommands

// The one executable: everything it does lives in PhotoPickCommands, where its tests reach it.
await PhotoPickCommand.runAsProgram()
