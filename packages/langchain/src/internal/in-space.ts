/** The `space` field of a call: left out when no space is named, so the client's own applies. */
export const inSpace = (space: string | undefined): { space?: string } => (space !== undefined ? { space } : {});
