/* the core's face for the arch code */
