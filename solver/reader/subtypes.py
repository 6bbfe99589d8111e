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


#: The creature types (CR 205.3m): the subtypes of the shipped database's creature and kindred
#: cards that no other card has (so no land, artifact, enchantment or spell type, CR 205.3g–k, such
#: as Dryad Arbor's Forest), with Dinosaur and Specter (also on other cards); generated once from the
#: database like :data:`SUBTYPES`. A changeling is every one of them (CR 702.73a).
CREATURE_TYPES: frozenset[str] = frozenset("""
Advisor Aetherborn Alicorn Alien Ally Angel Antelope Ape Archer Archon Armadillo Armored Art Artificer Artist
Assassin Assembly-Worker Astartes Athlete Atog Aurochs Autobot Avatar Azra Badger Barbarian Bard Basilisk Bat
Bear Beast Beaver Beeble Beholder Berserker Bird Bison Boar Boxer Brainiac Bringer Brushwagg Bureaucrat C'tan
Camel Capybara Carrier Cat Centaur Cephalid Chameleon Champion Chef Chicken Child Chimera Citizen Clamfolk
Cleric Clown Cockatrice Construct Cow Coward Coyote Crab Crocodile Custodes Cyberman Cyborg Cyclops Dalek
Dauthi Deer Demigod Demon Designer Detective Devil Dinosaur Djinn Doctor Dog Donkey Dragon Drake Dreadnought
Drix Drone Druid Dryad Dwarf Echidna Efreet Egg Elder Eldrazi Elemental Elephant Elf Elk Elves Employee
Eternal Etiquette Eye Faerie Ferret Fish Flagbearer Fox Fractal Frog Fungus Gamer Gamma Gargoyle Giant Giraffe
Gith Glimmer Gnoll Gnome Goat Goblin God Golem Gorgon Grandchild Gremlin Griffin Guest Gus Hag Halfling
Hamster Harpy Hatificer Hawk Head Hedgehog Hellion Hero Hippo Hippogriff Homarid Homunculus Horror Horse Human
Hydra Hyena Illusion Imp Incarnation Inhuman Inkling Inquisitor Insect Jackal Jellyfish Judge Juggernaut
Kangaroo Kavu Killbot Kirin Kithkin Knight Koala Kobold Kor Kraken Kree Lady Lamia Lammasu Lander Leech Lemur
Leviathan Lhurgoyf Licid Lizard Lobster Mammoth Manticore Masticore Mercenary Merfolk Metathran Mime Minion
Minotaur Mite Mole Monger Mongoose Monk Monkey Moogle Moonfolk Mount Mouse Mummy Mutant Myr Mystic Nautilus
Necron Nephilim Nightmare Nightstalker Ninja Noble Noggle Nomad Nymph Octopus Officer Ogre Ooze Orc Orgg Otter
Ouphe Ox Oyster Pangolin Paratrooper Peasant Pegasus Performer Pest Phelddagrif Phoenix Phyrexian Pilot Pirate
Plant Platypus Pony Porcupine Possum Praetor Primarch Processor Proper Qu Rabbit Raccoon Ranger Rat Rebel
Reflection Rhino Rigger Robot Rogue Sable Salamander Samurai Sand Saproling Satyr Scarecrow Scientist Scorpion
Scout Seal Serpent Shade Shaman Shapeshifter Shark Sheep Shi'ar Ship Siren Skeleton Skrull Skunk Slith Sliver
Sloth Slug Snail Snake Soldier Soltari Sorcerer Spawn Specter Spellshaper Sphinx Spider Spike Spirit Splinter
Sponge Spuzzem Spy Squid Squirrel Starfish Surrakar Survivor Symbiote Synth Thalakos Thopter Thrull Tiefling
Townsfolk Toy Tree Treefolk Trilobite Troll Turtle Tyranid Unicorn Utrom Vampire Vampyre Varmint Vedalken
Villain Volver Waiter Wall Walrus Warlock Warrior Weasel Weird Werewolf Whale Wizard Wolf Wolverine Wombat
Worm Wraith Wrestler Wurm Yeti Zombie Zonian Zubera
""".split()) | {"Time Lord"}
