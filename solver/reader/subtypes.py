"""Subtypes (CR 205.3) known to the reader: every subtype of the shipped card
database's game cards (solver/data/oracle-cards.json.gz), plus the artifact,
enchantment, land and spell types of CR 205.3g–k that token-making text uses.

A capitalised word in a noun phrase is read as a subtype only if it is listed
here, so adjectives at the start of a sentence ("Attacking creatures …",
"Legendary creatures …") are never mistaken for one.  Generated once from the
database; extend it by hand when new types appear.
"""
from __future__ import annotations

SUBTYPES: frozenset[str] = frozenset("""
Abian Adventure Advisor Aetherborn Ajani Alicorn Alien Ally Aminatou Angel Angrath Antelope Ape Arcane Archer
Archon Arlinn Armadillo Armored Art Artificer Artist Ashiok Assassin Assembly-Worker Astartes Athlete Atog
Attraction Aura Aurochs Autobot Avatar Azra Background Badger Bahamut Barbarian Bard Barnyard Basilisk Basri
Bat Bear Beast Beaver Beeble Beholder Berserker Bird Bison Blood Boar Bobblehead Bolas Book Boxer Brainiac
Bringer Brushwagg Bureaucrat Byode C'tan Calix Camel Capybara Carrier Cartouche Case Cat Cave Centaur Cephalid
Chameleon Champion Chandra Chef Chicken Child Chimera Chorus Citizen Clamfolk Class Cleric Cloud Clown Clue
Cockatrice Comet Construct Contraption Control Cow Coward Coyote Crab Crocodile Curse Custodes Cyberman Cyborg
Cyclops Dack Dakkon Dalek Daretti Dauthi Davriel Deb Deer Dellian Demigod Demon Desert Designer Detective
Devil Dihada Dinosaur Djinn Doctor Dog Domri Donkey Dovin Dragon Drake Dreadnought Drix Drone Druid Dryad Duck
Dungeon Dwarf Echidna Efreet Egg Elder Eldrazi Elemental Elephant Elf Elk Ellywick Elminster Elspeth Elves
Employee Equipment Ersta Estrid Eternal Etiquette Eye Faerie Ferret Fire Fish Flagbearer Food Forest
Fortification Fox Fractal Freyalise Frog Fungus Gamer Gamma Gargoyle Garruk Gate Giant Gideon Giraffe Gith
Glimmer Gnoll Gnome Goat Goblin God Gold Golem Gorgon Grandchild Gremlin Griffin Grist Guest Guff Gus Hag
Halfling Hamster Harpy Hatificer Hawk Head Hedgehog Hellion Hero Hippo Hippogriff Homarid Homunculus Horror
Horse Huatli Human Hydra Hyena Igpay Illusion Imp Incarnation Incubator Infinity Inhuman Inkling Inquisitor
Insect Inzerva Island Jace Jackal Jared Jaya Jellyfish Jeska Judge Juggernaut Junk Kaito Kangaroo Karn Kasmina
Kavu Kaya Key Killbot Kiora Kirin Kithkin Knight Koala Kobold Kor Koth Kraken Kree Lady Lair Lamia Lammasu
Lander Leech Lemur Lesson Leviathan Lhurgoyf Licid Liliana Lizard Lobster Locus Lolth Lukka Luxior Mammoth
Manticore Map Master Masticore Mercenary Merfolk Metathran Mime Mine Minion Minotaur Minsc Mission Mite Mole
Monger Mongoose Monk Monkey Monopoly Moogle Moonfolk Mordenkainen Mount Mountain Mouse Mummy Mutagen Mutant
Myr Mystic Nahiri Narset Nautilus Necron Nephilim Nightmare Nightstalker Niko Ninja Nissa Nixilis Noble Noggle
Nomad Nymph Octopus Officer Ogre Oko Omen Omenpath Ooze Orc Orgg Otter Ouphe Ox Oyster Pangolin Paratrooper
Peasant Pegasus Performer Pest Phelddagrif Phoenix Phyrexian Pilot Pirate Plains Plan Planet Plant Platypus
Point Pony Porcupine Possum Power-Plant Powerstone Praetor Primarch Processor Proper Qu Quest Quintorius
Rabbit Raccoon Ral Ranger Rat Realm Rebel Reflection Rhino Rigger Robot Rogue Role Room Rowan Rune Sable Saga
Saheeli Salamander Samurai Samut Sand Saproling Sarkhan Satyr Scarecrow Scientist Scorpion Scout Seal Secret
Serpent Serra Shade Shaman Shapeshifter Shard Shark Sheep Shi'ar Ship Shrine Siege Siren Sivitri Skeleton
Skrull Skunk Slith Sliver Sloth Slug Snail Snake Soldier Soltari Sorcerer Sorin Spacecraft Spawn Specter
Spellshaper Sphere Sphinx Spider Spike Spirit Splinter Sponge Spuzzem Spy Squid Squirrel Starfish Stone
Surrakar Survivor Svega Swamp Symbiote Synth Szat Tamiyo Tasha Teferi Terminus Teyo Tezzeret Thalakos Thopter
Thrull Tibalt Tiefling Tower Town Townsfolk Toy Trap Treasure Tree Treefolk Trilobite Troll Turtle Tyranid
Tyvar Ugin Ulamog's Unicorn Urza Urza's Utrom Vampire Vampyre Varmint Vedalken Vehicle Venser Villain Vivien
Volver Vraska Vronos Waiter Wall Walrus Wanderer Warlock Warrior Weasel Weird Werewolf Whale Will Windgrace
Wizard Wolf Wolverine Wombat Worm Wraith Wrenn Wrestler Wurm Xenagos Yanggu Yanling Yeti Zariel Zombie Zonian
Zubera
""".split())
