/** GraphQL types and queries of responses. Being built (issue 4). */
export {};
